import { plural } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, ShoppingCart } from "lucide-react";
import { useEffect, useState } from "react";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { CompleteLoadDialog } from "./complete-load-dialog";
import { OrderFilters, type TOrderFilter } from "./order-filters";
import { OrderRow } from "./order-row";
import { ECOMMERCE_REFETCH_MS, ORDERS_PAGE_SIZE } from "./shared";
import { type TPlaceNeeded, useConvertOrder, useReviewOrder } from "./use-convert-order";

/** The orders of the user's stores, newest first, filtered and paged; each becomes a load with Convert. */
export function OrdersTab({ canConvert }: { canConvert: boolean }) {
  const [filter, setFilter] = useState<TOrderFilter>({ integrationId: null, status: null });
  const [page, setPage] = useState(1);
  const [needed, setNeeded] = useState<TPlaceNeeded | null>(null);
  const integrations = useQuery(trpc.stores.integrations.queryOptions());
  const orders = useQuery(
    trpc.stores.orders.queryOptions(
      {
        integrationId: filter.integrationId ?? undefined,
        status: filter.status ?? undefined,
        page,
        pageSize: ORDERS_PAGE_SIZE,
      },
      { placeholderData: keepPreviousData, refetchInterval: ECOMMERCE_REFETCH_MS },
    ),
  );
  const convert = useConvertOrder(setNeeded);
  // Convert opens the order's load in the Post New Load form; only posting it there converts the order.
  const { review, pendingId } = useReviewOrder(setNeeded);
  const data = orders.data;
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  const filtered = filter.integrationId != null || filter.status != null;
  // Orders gone (a deleted integration, say) can leave the page past the last one.
  useEffect(() => {
    if (data && page > pages) setPage(pages);
  }, [data, page, pages]);

  return (
    <div className="grid gap-4">
      <OrderFilters
        integrations={integrations.data ?? []}
        value={filter}
        onChange={(f) => {
          setFilter(f);
          setPage(1);
        }}
      />
      {orders.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans comment="Shown while store orders are fetched">Loading orders…</Trans>
        </p>
      ) : orders.isError || !data ? (
        <LoadError
          title={<Trans>The orders could not be loaded.</Trans>}
          error={orders.error}
          onRetry={orders.refetch}
        />
      ) : data.items.length === 0 ? (
        <Card className="grid justify-items-center gap-3 p-8 text-center" data-testid="no-orders">
          <ShoppingCart className="size-8 text-muted-foreground" aria-hidden />
          <p className="text-sm text-muted-foreground">
            {filtered ? (
              <Trans>No orders match these filters.</Trans>
            ) : (
              <Trans>No orders yet: sync an integration.</Trans>
            )}
          </p>
        </Card>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" data-testid="orders-total">
            {plural(total, { one: "# order", other: "# orders" })}
          </p>
          <Card className="overflow-hidden">
            <ul className="divide-y" aria-busy={orders.isPlaceholderData}>
              {data.items.map((o) => (
                <OrderRow
                  key={o.id}
                  order={o}
                  canConvert={canConvert}
                  converting={pendingId === o.id || (convert.isPending && convert.variables?.id === o.id)}
                  onConvert={() => void review(o.id)}
                />
              ))}
            </ul>
          </Card>
          {pages > 1 && (
            <nav className="flex items-center justify-between gap-3" data-testid="orders-paging">
              <Button
                variant="outline"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPage((p) => Math.max(1, p - 1))}
                data-testid="orders-previous"
              >
                <ChevronLeft aria-hidden />
                <Trans comment="Button: show the previous page of results">Previous</Trans>
              </Button>
              <span className="text-sm text-muted-foreground" data-testid="orders-page">
                <Trans comment="Store orders: page {page} of {pages}">
                  Page {page} of {pages}
                </Trans>
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={page >= pages || orders.isPlaceholderData}
                onClick={() => setPage((p) => p + 1)}
                data-testid="orders-next"
              >
                <Trans comment="Button: show the next page of results">Next</Trans>
                <ChevronRight aria-hidden />
              </Button>
            </nav>
          )}
        </>
      )}
      {needed && (
        <CompleteLoadDialog
          key={needed.orderId}
          needed={needed}
          onClose={() => setNeeded(null)}
          onSubmitLoad={(load, confirmOceanCrossing) =>
            convert.mutateAsync({ id: needed.orderId, load, confirmOceanCrossing })
          }
        />
      )}
    </div>
  );
}
