import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { serverMessage, type TIntegration, useRefreshEcommerce } from "./shared";

/** Delete, after asking: the integration's orders go with it; loads already posted from them stay. */
export function DeleteIntegrationDialog({ integration }: { integration: TIntegration }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const remove = useMutation(
    trpc.stores.deleteIntegration.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({
          title: t({ message: "Integration Deleted", comment: "Notice title after a store was removed" }),
          description: integration.name,
          variant: "success",
        });
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
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={setOpen}
      title={<Trans comment="Confirmation title: delete the store or board named {name}?">Delete {name}?</Trans>}
      description={
        <Trans>
          Its credentials and the orders synced from it are deleted too. Loads already posted from its orders stay
          posted.
        </Trans>
      }
      pending={remove.isPending}
      onConfirm={() => remove.mutate({ id: integration.id })}
      testIds={{ trigger: "delete-integration", dialog: "confirm-delete-dialog", confirm: "confirm-delete" }}
    />
  );
}
