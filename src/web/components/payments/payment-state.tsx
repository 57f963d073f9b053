import { useLingui } from "@lingui/react/macro";
import type { TFreightPaymentState } from "../../../shared/schemas/payments";
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

export function PaymentStateBadge({ state }: { state: TFreightPaymentState }) {
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
      {label(state)}
    </Badge>
  );
}
