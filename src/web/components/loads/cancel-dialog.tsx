import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { FieldError, Label } from "../ui/input";
import { Textarea } from "../ui/textarea";

/** Cancel a load; an assigned load needs a reason, which the driver sees. */
export function CancelLoadDialog({ loadId, assigned }: { loadId: number; assigned: boolean }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.loads.cancel.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({
          title: t({ message: "Load cancelled", comment: "Notice title after the shipper cancelled a load" }),
          variant: "success",
        });
        await queryClient.invalidateQueries();
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`The load could not be cancelled. Please try again.`,
          variant: "destructive",
        }),
    }),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const reason = String(new FormData(e.currentTarget).get("reason") ?? "").trim();
    if (assigned && !reason) {
      setError(t`Tell the driver why`);
      return;
    }
    cancel.mutate({ loadId, reason: reason || null });
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost">
          <Trans comment="Button and confirm button: cancel this load (stop offering it)">Cancel load</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Cancel this load?</Trans>
          </DialogTitle>
          <DialogDescription>
            {assigned ? (
              <Trans>A driver is assigned. They will see your reason.</Trans>
            ) : (
              <Trans>Pending bids will be declined.</Trans>
            )}
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-3" onSubmit={submit} noValidate>
          <Label htmlFor={`cancel-reason-${loadId}`}>
            {assigned ? (
              <Trans comment="Label of the reason for cancelling a load (required once a driver is assigned)">
                Reason
              </Trans>
            ) : (
              <Trans comment="Label of the reason for cancelling a load, may stay empty">Reason (optional)</Trans>
            )}
          </Label>
          <Textarea id={`cancel-reason-${loadId}`} name="reason" maxLength={500} aria-invalid={!!error} />
          <FieldError>{error}</FieldError>
          <DialogFooter>
            <Button type="submit" variant="destructive" disabled={cancel.isPending}>
              {cancel.isPending ? (
                <Trans comment="Cancel load button while cancelling">Cancelling...</Trans>
              ) : (
                <Trans>Cancel load</Trans>
              )}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
