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
import { serverMessage, type TMarketplace, useRefreshMarketplaces } from "./shared";

/** Delete, after asking: the board's synced loads and sync history go with it. */
export function DeleteMarketplaceDialog({ config }: { config: TMarketplace }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();
  const remove = useMutation(
    trpc.marketplaces.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({ title: t`Marketplace Deleted`, description: config.name, variant: "success" });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Error`,
          description: serverMessage(err) ?? t`Failed to delete marketplace configuration`,
          variant: "destructive",
        });
      },
    }),
  );
  const name = config.name;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className="text-destructive" data-testid="delete-marketplace">
          <Trash2 aria-hidden />
          <Trans>Delete</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} role="alertdialog" data-testid="confirm-delete-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans>Delete {name}?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>Its credentials, the loads synced from it and its sync history are deleted too.</Trans>
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
            onClick={() => remove.mutate({ id: config.id })}
            data-testid="confirm-delete"
          >
            {remove.isPending ? <Trans>Deleting...</Trans> : <Trans>Delete</Trans>}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
