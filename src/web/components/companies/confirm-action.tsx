import { Trans, useLingui } from "@lingui/react/macro";
import { type ReactNode, useState } from "react";
import { errorInfo } from "../../lib/trpc";
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
import { FieldError } from "../ui/input";

/**
 * A button that asks first. The dialog stays open with the server's reason when the action is refused, and closes
 * once it succeeded.
 */
export function ConfirmAction({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  testId,
}: {
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => Promise<unknown>;
  testId: string;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setPending(true);
    setError(undefined);
    try {
      await onConfirm();
      setOpen(false);
    } catch (err) {
      setError(errorInfo(err).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(undefined);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent closeLabel={t`Close`} role="alertdialog" data-testid={`${testId}-dialog`}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <FieldError>{error}</FieldError>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" className="min-h-11 sm:min-h-9">
              <Trans comment="Dialog button: close the dialog without doing anything (not “cancel a load”)">
                Cancel
              </Trans>
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            className="min-h-11 sm:min-h-9"
            disabled={pending}
            onClick={() => void confirm()}
            data-testid={`${testId}-confirm`}
          >
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
