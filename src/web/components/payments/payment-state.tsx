import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { TFreightPayment, TFreightPaymentState, TPayoutIssue } from "../../../shared/schemas/payments";
import { Badge } from "../ui/badge";

/** A freight payment's state as a word the reader understands. */
export function usePaymentStateLabel() {
  const { t } = useLingui();
  return (state: TFreightPaymentState | string): string => {
    switch (state) {
      case "awaiting_payment":
        return t({ message: "Awaiting payment", comment: "Freight payment state: the shipper has not paid yet" });
      case "funded":
        return t({ message: "Payment secured", comment: "Freight payment state: the shipper paid; MyTess holds it" });
      case "released":
        return t({ message: "Released to the driver", comment: "Freight payment state: the driver's share is sent" });
      case "paid_out":
        return t({ message: "Paid out", comment: "Freight payment state: the driver received the money" });
      case "refunded":
        return t({ message: "Refunded", comment: "Freight payment state: the money went back to the shipper" });
      case "disputed":
        return t({ message: "Held: disputed", comment: "Freight payment state: held while the delivery is disputed" });
      default:
        return t({ message: "Payment failed", comment: "Freight payment state: the payment did not go through" });
    }
  };
}

/** A history row's label: the payout's own steps (waiting for a method, failed, sent again) read apart. */
export function useHistoryLabel() {
  const { t } = useLingui();
  const label = usePaymentStateLabel();
  return (h: TFreightPayment["history"][number]): string => {
    if (h.state === "payout_waiting")
      return t({
        message: "Waiting for a payout method",
        comment: "Freight payment history: the driver's share waits until they add a bank account, wallet or Stripe",
      });
    if (h.state === "failed" && h.detail?.stage === "payout")
      return t({ message: "Payout failed", comment: "Freight payment history: the transfer to the driver failed" });
    if (h.state === "released" && h.detail?.retry)
      return t({
        message: "Payout sent again",
        comment: "Freight payment history: the transfer to the driver is retried",
      });
    return label(h.state);
  };
}

/** For the driver: why their share is not paid out yet, what to do, and where. */
export function PayoutIssueNote({ issue }: { issue: TPayoutIssue }) {
  return (
    <div className="grid gap-1 text-sm" role="status" data-testid="payout-issue">
      <p className={issue === "waiting_method" ? "text-muted-foreground" : "text-destructive"}>
        {issue === "waiting_method" ? (
          <Trans>
            Add a payout method to receive this money: a bank account or wallet for birr, or finish your Stripe setup
            for dollars and euros. It is sent as soon as you do.
          </Trans>
        ) : issue === "account_name" ? (
          <Trans>
            The payout failed: the account holder's name does not match the bank's records. Correct it in your payout
            settings and it is sent again.
          </Trans>
        ) : issue === "account_number" ? (
          <Trans>
            The payout failed: the bank rejected the account number. Check it in your payout settings and it is sent
            again.
          </Trans>
        ) : (
          <Trans>
            The payout failed: the bank refused the transfer. Check your payout details, or choose another bank or
            wallet, and it is sent again.
          </Trans>
        )}
      </p>
      <Link to="/settings" className="inline-flex min-h-11 items-center font-medium underline underline-offset-4">
        <Trans comment="Link to the settings where the driver adds or corrects their bank account or wallet">
          Payout settings
        </Trans>
      </Link>
    </div>
  );
}

export function PaymentStateBadge({ state, secured = false }: { state: TFreightPaymentState; secured?: boolean }) {
  const { t } = useLingui();
  const label = usePaymentStateLabel();
  const variant =
    state === "failed"
      ? "destructive"
      : state === "awaiting_payment"
        ? "outline"
        : state === "disputed"
          ? "warning"
          : "success";
  return (
    <Badge variant={variant} data-testid="payment-state">
      {state === "failed" && secured
        ? t({ message: "Payout failed", comment: "Freight payment history: the transfer to the driver failed" })
        : label(state)}
    </Badge>
  );
}
