import { Trans, useLingui } from "@lingui/react/macro";
import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "./dialog";

/**
 * A Delete button that asks first: the title says what goes, the description what goes with it. The caller owns the
 * open state (it closes the dialog once the deletion succeeded) and the mutation.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  pending,
  onConfirm,
  testIds,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  pending: boolean;
  onConfirm: () => void;
  testIds: { trigger: string; dialog: string; confirm: string };
}) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className="text-destructive" data-testid={testIds.trigger}>
          <Trash2 aria-hidden />
          <Trans comment="Button: delete this item (a board, store, lane), then the confirming button in the dialog">
            Delete
          </Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} role="alertdialog" data-testid={testIds.dialog}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">
              <Trans comment="Dialog button: close the dialog without doing anything (not “cancel a load”)">
                Cancel
              </Trans>
            </Button>
          </DialogClose>
          <Button variant="destructive" disabled={pending} onClick={onConfirm} data-testid={testIds.confirm}>
            {pending ? (
              <Trans comment="Delete button while the deletion is in progress">Deleting...</Trans>
            ) : (
              <Trans>Delete</Trans>
            )}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
