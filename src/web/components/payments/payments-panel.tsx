import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { FileText } from "lucide-react";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { PaymentStateBadge, PayoutIssueNote, PayoutNoticeNote, useHistoryLabel } from "./payment-state";

/**
 * A payment's receipt, a PDF the server renders in the reader's language, calendar and time zone (both cookies go
 * with a plain link), opened in a new tab so the settings page stays where it was.
 */
function ReceiptLink({ paymentId, loadTitle }: { paymentId: number; loadTitle: string }) {
  const { t } = useLingui();
  return (
    <a
      href={`/api/payments/${paymentId}/receipt.pdf`}
      type="application/pdf"
      target="_blank"
      rel="noopener noreferrer"
      // Every row has one: the name says whose, so a screen reader's list of links tells them apart.
      aria-label={t({
        message: `Receipt for ${loadTitle} (PDF)`,
        comment: "Accessible name of the receipt link beside a load payment; {loadTitle} is the load's title",
      })}
      className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand underline-offset-4 hover:underline"
      data-testid="freight-payment-receipt"
    >
      <FileText className="size-4" aria-hidden="true" />
      <Trans comment="Link beside a payment: the payment receipt">Receipt</Trans>
    </a>
  );
}

/** The reader's freight payments (as shipper or driver), each with its state and history. */
export function PaymentsPanel() {
  const { formatOriginal, formatDate } = usePreferences();
  const label = useHistoryLabel();
  const q = useQuery(trpc.payments.list.queryOptions());
  return (
    <Card data-testid="freight-payments">
      <CardHeader>
        <CardTitle>
          <Trans comment="Settings card title: payments for loads (not the subscription)">Load payments</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Payments for your loads, held by MyTess until the delivery is accepted.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {q.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            <Trans>Loading payments…</Trans>
          </p>
        ) : q.isError ? (
          <LoadError title={<Trans>Payments could not be loaded.</Trans>} error={q.error} onRetry={q.refetch} />
        ) : q.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="freight-payments-empty">
            <Trans>No load payments yet.</Trans>
          </p>
        ) : (
          <ul className="grid gap-3">
            {q.data.map((p) => (
              <li key={p.id} className="grid gap-1 rounded-md border p-3" data-testid="freight-payment">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link
                    to="/loads/$id"
                    params={{ id: String(p.loadId) }}
                    className="inline-flex min-h-11 items-center font-medium underline-offset-4 hover:underline"
                  >
                    {p.loadTitle}
                  </Link>
                  <PaymentStateBadge state={p.state} secured={p.secured} notice={p.payoutNotice} />
                </div>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="text-sm">{formatOriginal(p.total, p.currency)}</p>
                  <ReceiptLink paymentId={p.id} loadTitle={p.loadTitle} />
                </div>
                {p.payoutIssue && <PayoutIssueNote issue={p.payoutIssue} />}
                {p.payoutNotice && <PayoutNoticeNote notice={p.payoutNotice} role={p.role} />}
                <ol className="text-xs text-muted-foreground">
                  {p.history.map((h, i) => (
                    <li key={i}>
                      {formatDate(h.at, { dateStyle: "medium", timeStyle: "short" })}: {label(h)}
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
