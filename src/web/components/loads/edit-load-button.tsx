import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Pencil } from "lucide-react";
import { useState } from "react";
import type { TCreateLoadForm } from "../../../shared/schemas/loads";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { Button } from "../ui/button";
import { changedFields } from "./load-patch";
import { PostLoadDialog, type TPostLoadInitial } from "./post-load-dialog";

/** The posted load as the edit form starts from it (the fields of posting, as the load page has them). */
type TEditable = Omit<TPostLoadInitial, "equipmentType" | "budgetCurrency"> & {
  equipmentType: string;
  budgetCurrency: string;
};

/** "Edit load" on a posted load's page, for its shipper side: the post form pre-filled, saving only what changed. */
export function EditLoadButton({ load }: { load: TEditable & { id: number } }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const [open, setOpen] = useState(false);
  // Remounted on each opening (key), so the form starts from the load as it is now.
  const [opened, setOpened] = useState(0);
  const initial = { ...load } as TPostLoadInitial;
  const update = useMutation(trpc.loads.update.mutationOptions());
  const save = async (form: TCreateLoadForm) => {
    const patch = changedFields(initial, form);
    if (!Object.keys(patch).length) {
      toast({ title: t({ message: "Nothing to save", comment: "Notice: the edit-load form was saved unchanged" }) });
      return;
    }
    try {
      await update.mutateAsync({ loadId: load.id, ...patch });
    } catch (err) {
      if (onUnauthorized(err)) throw err;
      const info = errorInfo(err);
      toast({
        title: t`Error`,
        description: info.issues.length
          ? t({ message: "Check the marked fields.", comment: "Notice after a form was refused: fix the fields shown" })
          : info.message,
        variant: "destructive",
      });
      throw err;
    }
    toast({
      title: t({ message: "Load updated", comment: "Notice title after the shipper saved changes to a posted load" }),
      description: t`Drivers who bid on it are told what changed.`,
      variant: "success",
    });
    await queryClient.invalidateQueries();
  };
  return (
    <>
      <Button
        variant="outline"
        className="min-h-11 sm:min-h-9"
        data-testid="edit-load"
        onClick={() => {
          setOpened((n) => n + 1);
          setOpen(true);
        }}
      >
        <Pencil />
        <Trans comment="Button on a posted load's page: change the load's details">Edit load</Trans>
      </Button>
      <PostLoadDialog
        key={opened}
        mode="edit"
        open={open}
        onOpenChange={setOpen}
        initial={initial}
        onSubmitLoad={save}
        description={<Trans>Drivers who already bid are told which details changed; their bids stay open.</Trans>}
      />
    </>
  );
}
