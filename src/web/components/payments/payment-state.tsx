import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type {
  TFreightPayment,
  TFreightPaymentState,
  TPayoutIssue,
  TPayoutNotice,
} from "../../../shared/schemas/payments";
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
    if (h.state === "payout_delayed")
      return t({
        message: "Payout delayed",
        comment: "Freight payment history: the bank transfer to the driver is still pending after two days",
      });
    if (h.state === "payout_reversed")
      return t({
        message: "Payout reversed",
        comment: "Freight payment history: Stripe took back money already sent to the driver",
      });
    if (h.state === "failed" && h.detail?.stage === "reversal")
      return t({
        message: "Held after the reversal",
        comment: "Freight payment history: after a reversal the money is held until an operator settles it",
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

/** For both parties: a payout Chapa still reports pending after two days, or one Stripe took back; what happens next. */
export function PayoutNoticeNote({ notice, role }: { notice: TPayoutNotice; role: "shipper" | "driver" }) {
  return (
    <div className="grid gap-1 text-sm" role="status" data-testid="payout-notice">
      <p className={notice === "delayed" ? "text-yellow-800" : "text-destructive"}>
        {notice === "delayed" ? (
          role === "driver" ? (
            <Trans>
              Payout delayed: Chapa still reports your transfer as pending. Our team is checking it with Chapa. It is
              never sent twice, and you are told as soon as it arrives.
            </Trans>
          ) : (
            <Trans>
              Payout delayed: Chapa still reports the transfer to the driver as pending. Our team is checking it with
              Chapa; nothing more is needed from you.
            </Trans>
          )
        ) : role === "driver" ? (
          <Trans>
            Payout reversed: the money was taken back from your Stripe account. Check your Stripe account and contact
            MyTess support; the money is held until an operator settles it.
          </Trans>
        ) : (
          <Trans>
            Payout reversed: the transfer to the driver was taken back. The money is held by MyTess until an operator
            settles it; nothing more is needed from you.
          </Trans>
        )}
      </p>
    </div>
  );
}

export function PaymentStateBadge({
  state,
  secured = false,
  notice = null,
}: {
  state: TFreightPaymentState;
  secured?: boolean;
  notice?: TPayoutNotice | null;
}) {
  const { t } = useLingui();
  const label = usePaymentStateLabel();
  const variant =
    state === "failed"
      ? "destructive"
      : state === "awaiting_payment"
        ? "outline"
        : state === "disputed" || notice === "delayed"
          ? "warning"
          : "success";
  return (
    <Badge variant={variant} data-testid="payment-state">
      {notice === "delayed"
        ? t({
            message: "Payout delayed",
            comment: "Freight payment history: the bank transfer to the driver is still pending after two days",
          })
        : notice === "reversed"
          ? t({
              message: "Payout reversed",
              comment: "Freight payment history: Stripe took back money already sent to the driver",
            })
          : state === "failed" && secured
            ? t({ message: "Payout failed", comment: "Freight payment history: the transfer to the driver failed" })
            : label(state)}
    </Badge>
  );
}
