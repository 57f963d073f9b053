import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { LoadError } from "../ui/load-error";
import { type TPayment, useProviderName } from "./shared";

function PaymentStatus({ status }: { status: TPayment["status"] }) {
  const { t } = useLingui();
  const look = {
    paid: { variant: "success", label: t({ message: "Paid", comment: "Payment status badge: paid" }) },
    pending: { variant: "warning", label: t`Pending` },
    failed: {
      variant: "destructive",
      label: t({ message: "Failed", comment: "Payment status badge: the payment did not go through" }),
    },
    refunded: {
      variant: "secondary",
      label: t({ message: "Refunded", comment: "Payment status badge: the money was given back" }),
    },
    cancelled: { variant: "outline", label: t`Cancelled` },
  } as const;
  const l = look[status as keyof typeof look] ?? { variant: "outline", label: status };
  return (
    <Badge variant={l.variant} data-testid="payment-status">
      {l.label}
    </Badge>
  );
}

function PaymentRow({ p }: { p: TPayment }) {
  const { formatDate, formatOriginal } = usePreferences();
  const providerName = useProviderName();
  const date = formatDate(p.date);
  const provider = providerName(p.provider);
  const end = p.periodEnd ? formatDate(p.periodEnd) : null;
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
      data-testid="payment-row"
      data-status={p.status}
    >
      <div className="grid min-w-0 gap-0.5">
        <span className="font-medium text-slate-900">
          {formatOriginal(p.amount, p.currency)} <span className="text-xs text-muted-foreground">{p.currency}</span>
        </span>
        <span className="text-xs text-muted-foreground">
          {date} · {provider}
          {p.months > 1 && <> · {plural(p.months, { one: "# month", other: "# months" })}</>}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        {end && (
          <span className="text-muted-foreground">
            <Trans comment="Payment list: premium paid until the date {end}">Premium until {end}</Trans>
          </span>
        )}
        <PaymentStatus status={p.status} />
        {p.receiptUrl && (
          <a
            href={p.receiptUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 font-medium text-brand hover:underline"
            data-testid="payment-receipt"
          >
            <Trans comment="Link beside a payment: the payment receipt">Receipt</Trans>
            <ExternalLink className="size-3" />
          </a>
        )}
      </div>
    </li>
  );
}

/** The account's payments, newest first: date, provider, amount, status, the period bought and the receipt. */
export function PaymentsList() {
  const payments = useQuery(trpc.billing.payments.queryOptions());
  return (
    <section className="grid gap-2" data-testid="payments" aria-labelledby="payments-title">
      <h2 id="payments-title" className="font-semibold text-slate-900">
        <Trans comment="Subscription page heading: the list of payments">Payments</Trans>
      </h2>
      {payments.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans comment="Shown while payments are fetched">Loading payments…</Trans>
        </p>
      ) : payments.isError ? (
        <LoadError
          title={<Trans>Payments could not be loaded.</Trans>}
          error={payments.error}
          onRetry={payments.refetch}
        />
      ) : payments.data.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="payments-empty">
          <Trans>No payments yet.</Trans>
        </p>
      ) : (
        <ul className="divide-y text-sm">
          {payments.data.map((p) => (
            <PaymentRow key={p.id} p={p} />
          ))}
        </ul>
      )}
    </section>
  );
}
