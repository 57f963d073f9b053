import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { usePreferences } from "../../lib/preferences";
import { Badge } from "../ui/badge";
import { rowLinkProps, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";
import { LoadStatusBadge } from "./badges";
import { BudgetAmount } from "./budget-amount";
import { LoadTitleLink } from "./load-cells";
import { BestBid, MyLoadActions, MyLoadFacts, type TMyLoad } from "./my-load";
import { PendingBadge } from "./pending-badge";

const COLUMN_WIDTHS = [
  ["load", "26%"],
  ["status", "9%"],
  ["pickup", "11%"],
  ["bids", "6%"],
  ["best", "10%"],
  ["budget", "10%"],
  ["actions", "28%"],
] as const;

/**
 * My Loads as a dense table (desktop widths): title and route, status, pickup, bids waiting and the best of them, the
 * budget, and the same actions as the card. Loads posted offline and not sent yet come first, marked as waiting.
 */
export function MyLoadsTable({ loads, queued }: { loads: TMyLoad[]; queued: { id: string; title: string }[] }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { formatNumber, formatDate } = usePreferences();
  return (
    <div className="overflow-clip rounded-xl border bg-white">
      <Table
        aria-label={t({
          message: "My Loads",
          comment: "Shipper dashboard heading and table name: the shipper's own loads",
        })}
        data-testid="my-loads-table"
        className="table-fixed"
      >
        <colgroup>
          {COLUMN_WIDTHS.map(([name, width]) => (
            <col key={name} style={{ width }} />
          ))}
        </colgroup>
        <TableHeader>
          <tr>
            <TableHead className="pl-4">
              <Trans>Load</Trans>
            </TableHead>
            <TableHead>
              <Trans>Status</Trans>
            </TableHead>
            <TableHead>
              <Trans>Pickup</Trans>
            </TableHead>
            <TableHead end>
              <Trans>Bids</Trans>
            </TableHead>
            <TableHead end>
              <Trans comment="Column header in the shipper's load table: the lowest price offered (bid) so far">
                Best bid
              </Trans>
            </TableHead>
            <TableHead end>
              <Trans comment="Label and column header: the price the shipper is ready to pay for the load">
                Budget
              </Trans>
            </TableHead>
            <TableHead end className="pr-4">
              <span className="sr-only">
                <Trans>Actions</Trans>
              </span>
            </TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {queued.map((q) => (
            <TableRow key={q.id} data-testid="pending-load">
              <TableCell className="pl-4 font-medium">{q.title}</TableCell>
              <TableCell colSpan={6}>
                <Badge variant="warning">
                  <Trans>Waiting to send</Trans>
                </Badge>
              </TableCell>
            </TableRow>
          ))}
          {loads.map((l) => (
            <TableRow
              key={l.id}
              data-testid="my-load"
              data-load-id={l.id}
              {...rowLinkProps(() => navigate({ to: "/loads/$id", params: { id: String(l.id) } }))}
            >
              <TableCell className="pl-4">
                <LoadTitleLink load={l} className="font-medium" />
                <div className="text-muted-foreground">
                  {l.pickupLocation} → {l.deliveryLocation}
                </div>
                <MyLoadFacts load={l} />
              </TableCell>
              <TableCell>
                <div className="flex flex-col items-start gap-1">
                  <LoadStatusBadge status={l.status} />
                  <PendingBadge loadId={l.id} />
                </div>
              </TableCell>
              <TableCell>{formatDate(l.pickupDate, { dateStyle: "medium" })}</TableCell>
              <TableCell end className="tabular-nums" data-testid="pending-bids">
                {l.agreedPrice ? <span className="text-muted-foreground">—</span> : formatNumber(l.pendingBids)}
              </TableCell>
              <TableCell end>
                <BestBid bid={l.bestBid} agreed={l.agreedPrice} />
              </TableCell>
              <TableCell end>
                <BudgetAmount amount={l.budgetAmount} currency={l.budgetCurrency} className="text-sm" />
              </TableCell>
              <TableCell className="pr-4">
                <div className="flex flex-wrap justify-end gap-1.5">
                  <MyLoadActions load={l} />
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
