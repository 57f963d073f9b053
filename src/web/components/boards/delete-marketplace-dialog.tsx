import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { serverMessage, type TMarketplace, useRefreshMarketplaces } from "./shared";

/** Delete, after asking: the board's synced loads and sync history go with it. */
export function DeleteMarketplaceDialog({ config }: { config: TMarketplace }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();
  const remove = useMutation(
    trpc.boards.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({
          title: t({ message: "Marketplace Deleted", comment: "Notice title after a load board was removed" }),
          description: config.name,
          variant: "success",
        });
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
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={setOpen}
      title={<Trans>Delete {name}?</Trans>}
      description={<Trans>Its credentials, the loads synced from it and its sync history are deleted too.</Trans>}
      pending={remove.isPending}
      onConfirm={() => remove.mutate({ id: config.id })}
      testIds={{ trigger: "delete-marketplace", dialog: "confirm-delete-dialog", confirm: "confirm-delete" }}
    />
  );
}
