import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { ExternalLink, Loader2 } from "lucide-react";
import { useState } from "react";
import { MONEY_BACK_DAYS } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
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
import { type TSubscription, useRefreshSubscription } from "./shared";

/**
 * Cancel at the period's end, or within the money-back window cancel with a refund (the paid period ends now; what the
 * free trial had left stays). A card subscription still waiting for the trial's end is cancelled before any charge.
 */
function CancelDialog({ data }: { data: TSubscription }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const refresh = useRefreshSubscription();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<"cancel" | "refund">("cancel");
  const until = data.currentPeriodEnd ? formatDate(data.currentPeriodEnd) : "";
  const trialUntil = formatDate(data.trialStatus.trialEndsAt);
  const waiting = data.billingStartsAt != null;
  const days = MONEY_BACK_DAYS;

  const cancel = useMutation(
    trpc.billing.cancel.mutationOptions({
      onSuccess: (r) => {
        setOpen(false);
        if (r.refunded)
          toast({
            title: t({ message: "Refund requested", comment: "Notice title after a refund was asked for" }),
            description: t`Your last payment is being refunded and the paid period has ended. The money can take a few days to reach you.`,
            variant: "success",
          });
        else {
          const end = r.currentPeriodEnd ? formatDate(r.currentPeriodEnd) : until;
          toast({
            title: t({
              message: "Subscription cancelled",
              comment: "Notice title after the subscription was cancelled",
            }),
            description: waiting
              ? t`Your card will not be charged. Your free trial continues until ${trialUntil}.`
              : t`Premium continues until ${end}. You will not be charged again.`,
            variant: "success",
          });
        }
      },
      onError: (err) =>
        toast({ title: t`Could not cancel`, description: errorInfo(err).message, variant: "destructive" }),
      onSettled: () => refresh(),
    }),
  );
  const pending = cancel.isPending;

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (pending) return;
        setOpen(o);
        if (o) setStep("cancel");
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="cancel-subscription">
          <Trans comment="Button: end the paid premium subscription">Cancel subscription</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="cancel-dialog">
        {step === "cancel" ? (
          <>
            <DialogHeader>
              <DialogTitle>
                <Trans>Cancel your subscription?</Trans>
              </DialogTitle>
              <DialogDescription>
                {waiting ? (
                  <Trans>Your card will not be charged. Your free trial continues until {trialUntil}.</Trans>
                ) : (
                  <Trans>Premium continues until {until}, then ends. You will not be charged again.</Trans>
                )}
              </DialogDescription>
            </DialogHeader>
            {data.refundable && (
              <div className="grid gap-2 rounded-md border bg-muted p-3 text-sm">
                <p className="font-medium text-slate-900">
                  <Trans comment="Cancel-subscription dialog: refund of the first payment within 30 days">
                    Money-back guarantee
                  </Trans>
                </p>
                <p className="text-muted-foreground">
                  <Trans>Within {days} days of your first payment: your money back, the paid period ends now.</Trans>
                </p>
                <Button
                  variant="outline"
                  className="justify-self-start"
                  data-testid="cancel-refund"
                  disabled={pending}
                  onClick={() => setStep("refund")}
                >
                  <Trans comment="Button in the cancel-subscription dialog: cancel premium and get the first payment back">
                    Cancel and refund
                  </Trans>
                </Button>
              </div>
            )}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline" disabled={pending}>
                  <Trans comment="Button in the cancel-subscription dialog: do not cancel, keep premium">
                    Keep premium
                  </Trans>
                </Button>
              </DialogClose>
              <Button
                variant="destructive"
                data-testid="confirm-cancel"
                disabled={pending}
                aria-busy={pending}
                onClick={() => cancel.mutate({ refund: false })}
              >
                {pending && <Loader2 className="animate-spin" />}
                <Trans>Cancel subscription</Trans>
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>
                <Trans>Cancel and refund?</Trans>
              </DialogTitle>
              <DialogDescription>
                <Trans>
                  Your last payment is refunded to where it came from and the paid period ends now; what was left of
                  your free trial stays. This cannot be undone.
                </Trans>
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button variant="outline" disabled={pending} onClick={() => setStep("cancel")}>
                <Trans>Back</Trans>
              </Button>
              <Button
                variant="destructive"
                data-testid="confirm-refund"
                disabled={pending}
                aria-busy={pending}
                onClick={() => cancel.mutate({ refund: true })}
              >
                {pending && <Loader2 className="animate-spin" />}
                <Trans comment="Button: give the last payment back and end premium now">Refund and end premium</Trans>
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Stripe's own page for the card on file and the invoices. */
function PortalButton() {
  const { t } = useLingui();
  const [leaving, setLeaving] = useState(false);
  const portal = useMutation(
    trpc.billing.portal.mutationOptions({
      onSuccess: ({ url }) => {
        setLeaving(true);
        window.location.assign(url);
      },
      onError: (err) =>
        toast({
          title: t`Could not open the billing page`,
          description: errorInfo(err).message,
          variant: "destructive",
        }),
    }),
  );
  const pending = portal.isPending || leaving;
  return (
    <Button variant="outline" data-testid="billing-portal" disabled={pending} onClick={() => portal.mutate()}>
      {pending ? <Loader2 className="animate-spin" /> : <ExternalLink />}
      <Trans>Manage card and invoices</Trans>
    </Button>
  );
}

/** For a paid period: cancel (with a refund while it is allowed) and, for Stripe, the card and invoices. */
export function ManageSubscription({ data }: { data: TSubscription }) {
  const canCancel = !data.cancelAtPeriodEnd;
  const hasPortal = data.provider === "stripe";
  if (!canCancel && !hasPortal) return null;
  return (
    <section className="grid gap-2" data-testid="manage-subscription" aria-labelledby="manage-subscription-title">
      <h2 id="manage-subscription-title" className="font-semibold text-slate-900">
        <Trans>Manage your subscription</Trans>
      </h2>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {hasPortal && <PortalButton />}
        {canCancel && <CancelDialog data={data} />}
      </div>
    </section>
  );
}
