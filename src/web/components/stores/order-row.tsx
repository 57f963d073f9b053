import { Trans } from "@lingui/react/macro";
import { usePreferences } from "../../lib/preferences";
import { OrderAction } from "./order-action";
import type { TOrder } from "./shared";
import { OrderStatusBadge } from "./status-badges";

/** One store order: number, date, customer, where it ships, its total, status and action; a card on phones. */
export function OrderRow({
  order,
  canConvert,
  converting,
  onConvert,
}: {
  order: TOrder;
  canConvert: boolean;
  converting: boolean;
  onConvert: () => void;
}) {
  const { formatDate, formatOriginal } = usePreferences();
  const shipTo = [order.shippingCity, order.shippingState, order.shippingCountry].filter(Boolean).join(", ");
  return (
    <li
      className="grid gap-3 p-4 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_8rem_10.5rem] sm:items-center"
      data-testid="order-row"
      data-order-id={order.id}
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold" data-testid="order-number">
            {order.orderNumber}
          </span>
          <OrderStatusBadge status={order.status} />
        </div>
        <div className="text-sm text-muted-foreground">
          <time dateTime={order.orderDate} data-testid="order-date">
            {formatDate(order.orderDate, { dateStyle: "medium", timeStyle: "short" })}
          </time>
          {order.integrationName && <span className="break-words"> · {order.integrationName}</span>}
        </div>
      </div>
      <div className="min-w-0 text-sm">
        <div className="break-words" data-testid="order-customer">
          {order.customerName ?? (
            <span className="text-muted-foreground">
              <Trans>No customer name</Trans>
            </span>
          )}
        </div>
        <div className="break-words text-muted-foreground" data-testid="order-ship-to">
          {shipTo ? (
            <Trans comment="Store order: the place the order is sent to">Ships to {shipTo}</Trans>
          ) : (
            <Trans>No shipping address</Trans>
          )}
        </div>
      </div>
      {/* On phones the total and the action share a line; from sm up they are the grid's last two columns. */}
      <div className="flex flex-wrap items-center justify-between gap-3 sm:contents">
        <div className="font-semibold sm:text-right" data-testid="order-total">
          {formatOriginal(order.totalAmount, order.currency)}
        </div>
        <div className="sm:justify-self-end">
          <OrderAction order={order} canConvert={canConvert} converting={converting} onConvert={onConvert} />
        </div>
      </div>
    </li>
  );
}
