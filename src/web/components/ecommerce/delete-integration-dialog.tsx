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
import { serverMessage, type TIntegration, useRefreshEcommerce } from "./shared";

/** Delete, after asking: the integration's orders go with it; loads already posted from them stay. */
export function DeleteIntegrationDialog({ integration }: { integration: TIntegration }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const remove = useMutation(
    trpc.ecommerce.deleteIntegration.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({ title: t`Integration Deleted`, description: integration.name, variant: "success" });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Error`,
          description: serverMessage(err) ?? t`Failed to delete integration`,
          variant: "destructive",
        });
      },
    }),
  );
  const name = integration.name;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className="text-destructive" data-testid="delete-integration">
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
            <Trans>
              Its credentials and the orders synced from it are deleted too. Loads already posted from its orders stay
              posted.
            </Trans>
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
            onClick={() => remove.mutate({ id: integration.id })}
            data-testid="confirm-delete"
          >
            {remove.isPending ? <Trans>Deleting...</Trans> : <Trans>Delete</Trans>}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
