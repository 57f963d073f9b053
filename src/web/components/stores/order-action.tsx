import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { ArrowRightLeft, CheckCircle2 } from "lucide-react";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Tooltip, TooltipProvider } from "../ui/tooltip";
import type { TOrder } from "./shared";

/** Convert, or, once the order is a load, a Converted badge with the link to that load. */
export function OrderAction({
  order,
  canConvert,
  converting,
  onConvert,
}: {
  order: TOrder;
  /** Shippers only: the server refuses anyone else. */
  canConvert: boolean;
  converting: boolean;
  onConvert: () => void;
}) {
  const { t } = useLingui();
  if (order.isConvertedToLoad)
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="success" data-testid="converted-badge">
          <CheckCircle2 className="size-3" aria-hidden />
          <Trans comment="Status badge of a store order: it has been turned into a load">Converted</Trans>
        </Badge>
        {order.loadId != null && (
          <Link
            to="/loads/$id"
            params={{ id: String(order.loadId) }}
            className="text-sm font-medium text-brand hover:underline"
            data-testid="order-load-link"
          >
            <Trans comment="Button on a converted store order: open the load made from it">View load</Trans>
          </Link>
        )}
      </div>
    );
  const cancelled = order.status === "cancelled";
  const reason = !canConvert
    ? t`Only shipper accounts post loads`
    : cancelled
      ? t`Cancelled orders are not posted as loads`
      : null;
  const button = (
    <Button
      size="sm"
      disabled={!!reason || converting}
      onClick={onConvert}
      data-testid="convert-order"
      title={reason ?? undefined}
    >
      <ArrowRightLeft aria-hidden />
      {converting ? (
        <Trans comment="Convert button while the order is being turned into a load">Converting...</Trans>
      ) : (
        <Trans comment="Button on a store order: turn it into a load posted on the board">Convert</Trans>
      )}
    </Button>
  );
  if (!reason) return button;
  // A disabled button takes no pointer or focus: the wrapper carries the explanation.
  return (
    <TooltipProvider>
      <Tooltip content={reason}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the focusable wrapper shows why the button is disabled */}
        <span tabIndex={0} className="inline-flex" title={reason} data-testid="convert-disabled-reason">
          {button}
        </span>
      </Tooltip>
    </TooltipProvider>
  );
}
