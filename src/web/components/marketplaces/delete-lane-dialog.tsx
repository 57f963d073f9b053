import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { laneTitle } from "./lane-form-dialog";
import { serverMessage, type TLane, useRefreshMarketplaces } from "./shared";

/** Delete a saved lane, after asking. Loads already synced stay until the next sync no longer finds them. */
export function DeleteLaneDialog({ lane }: { lane: TLane }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();
  const title = lane.name ?? laneTitle(lane);
  const remove = useMutation(
    trpc.marketplaces.deleteLane.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({ title: t`Lane deleted`, description: title, variant: "success" });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Error`,
          description: serverMessage(err) ?? t`The lane could not be deleted`,
          variant: "destructive",
        });
      },
    }),
  );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className="text-destructive" data-testid="delete-lane">
          <Trash2 aria-hidden />
          <Trans>Delete</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} role="alertdialog" data-testid="confirm-delete-lane-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans>Delete the lane {title}?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>Sync stops searching it. Loads already found on it leave your board at the next sync.</Trans>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">
              <Trans>Cancel</Trans>
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: lane.id })}
            data-testid="confirm-delete-lane"
          >
            {remove.isPending ? <Trans>Deleting...</Trans> : <Trans>Delete</Trans>}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
