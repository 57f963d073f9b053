import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
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
    trpc.boards.deleteLane.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({
          title: t({ message: "Lane deleted", comment: "Notice title after a saved lane was deleted" }),
          description: title,
          variant: "success",
        });
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
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={setOpen}
      title={<Trans>Delete the lane {title}?</Trans>}
      description={<Trans>Sync stops searching it. Loads already found on it leave your board at the next sync.</Trans>}
      pending={remove.isPending}
      onConfirm={() => remove.mutate({ id: lane.id })}
      testIds={{ trigger: "delete-lane", dialog: "confirm-delete-lane-dialog", confirm: "confirm-delete-lane" }}
    />
  );
}
