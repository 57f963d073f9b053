import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Clock, Loader2, XCircle } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { usePreferences } from "../../lib/preferences";
import { errorInfo, trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { isPaid, refreshSubscription, subscriptionStatusOptions, type TSubscription } from "./shared";

/** What the provider's page sent the browser back with (Stripe: success or cancelled; Chapa: return with tx_ref). */
export type TCheckoutReturn = { kind: "success" } | { kind: "cancelled" } | { kind: "return"; txRef: string };

const POLL_MS = 2_000;
const POLL_FOR_MS = 30_000;

const TONE = {
  info: { box: "border-sky-200 bg-sky-50 text-sky-900", icon: <Loader2 className="size-4 shrink-0 animate-spin" /> },
  success: { box: "border-green-200 bg-green-50 text-green-900", icon: <CheckCircle2 className="size-4 shrink-0" /> },
  warning: { box: "border-yellow-300 bg-yellow-50 text-yellow-900", icon: <Clock className="size-4 shrink-0" /> },
  error: { box: "border-red-200 bg-red-50 text-red-900", icon: <XCircle className="size-4 shrink-0" /> },
} as const;

function Notice({
  tone,
  state,
  children,
  action,
}: {
  tone: keyof typeof TONE;
  state: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      className={cn("flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border p-4 text-sm", TONE[tone].box)}
      data-testid="checkout-result"
      data-state={state}
      role={tone === "error" ? "alert" : "status"}
    >
      <div className="flex min-w-0 flex-1 items-start gap-2">
        <span className="mt-0.5">{TONE[tone].icon}</span>
        <p className="min-w-0">{children}</p>
      </div>
      {action}
    </div>
  );
}

/** What the server says once the provider's webhooks are in: a paid period, or a card subscription waiting for it. */
const settled = (d: TSubscription) => isPaid(d) || d.billingStartsAt != null;

/**
 * A payment the provider has taken but the server may not have heard of yet (its webhook is on the way): the status is
 * asked again every 2 s for up to 30 s, until the paid period runs into the future (or, bought during the trial by
 * card, the subscription waits for the trial's end).
 */
function Activation({ waiting }: { waiting: ReactNode }) {
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const [timedOut, setTimedOut] = useState(false);
  const status = useQuery({
    ...subscriptionStatusOptions(),
    refetchInterval: (q) => {
      const d = q.state.data;
      if (timedOut || (d && q.state.dataUpdatedAt >= startedAt && settled(d))) return false;
      return POLL_MS;
    },
  });
  // Data from before the payment (a cached answer) does not count.
  const active = status.data != null && status.dataUpdatedAt >= startedAt && settled(status.data);

  useEffect(() => {
    if (active) return;
    const id = setTimeout(() => setTimedOut(true), POLL_FOR_MS - (Date.now() - startedAt));
    return () => clearTimeout(id);
  }, [active, startedAt]);

  // Once active: the header badge and the payments list learn of it too.
  const refreshed = useRef(false);
  useEffect(() => {
    if (!active || refreshed.current) return;
    refreshed.current = true;
    void refreshSubscription(queryClient);
  }, [active, queryClient]);

  if (active && status.data?.billingStartsAt && !isPaid(status.data)) {
    const start = formatDate(status.data.billingStartsAt);
    return (
      <Notice tone="success" state="scheduled">
        <Trans>Card subscription set up: the first charge is on {start}, when your free trial ends.</Trans>
      </Notice>
    );
  }
  if (active && status.data?.currentPeriodEnd) {
    const until = formatDate(status.data.currentPeriodEnd);
    return (
      <Notice tone="success" state="active">
        <Trans>Premium is active until {until}</Trans>
      </Notice>
    );
  }
  if (timedOut)
    return (
      <Notice
        tone="warning"
        state="delayed"
        action={
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              setStartedAt(Date.now());
              setTimedOut(false);
              void status.refetch();
            }}
          >
            <Trans comment="Button after a payment: ask again whether the payment is confirmed">Check again</Trans>
          </Button>
        }
      >
        <Trans>
          Your payment is still being confirmed. Premium switches on as soon as it is: check again in a minute. If it
          does not, contact us.
        </Trans>
      </Notice>
    );
  return (
    <Notice tone="info" state="activating">
      {waiting}
    </Notice>
  );
}

/** The return from Chapa's page: the payment is confirmed with Chapa once, then shown as paid, pending or failed. */
function ChapaReturn({ txRef }: { txRef: string }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const confirm = useMutation(
    trpc.billing.confirm.mutationOptions({
      onSuccess: (r) => {
        queryClient.setQueryData(trpc.billing.status.queryKey(), r.subscription);
        void refreshSubscription(queryClient);
      },
      onError: () => void refreshSubscription(queryClient),
    }),
  );
  const { mutate } = confirm;
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate({ txRef });
  }, [mutate, txRef]);

  if (confirm.isError)
    return (
      <Notice tone="error" state="error">
        {errorInfo(confirm.error).message}
      </Notice>
    );
  if (!confirm.data)
    return (
      <Notice tone="info" state="confirming">
        <Trans>Confirming your payment with Chapa…</Trans>
      </Notice>
    );
  const { status, subscription } = confirm.data;
  if (status === "paid") {
    const until = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : "";
    return (
      <Notice tone="success" state="paid">
        <Trans>Payment received. Premium is active until {until}</Trans>
      </Notice>
    );
  }
  if (status === "pending")
    return (
      <Activation waiting={t`Chapa has not confirmed your payment yet: premium is activated as soon as it does…`} />
    );
  if (status === "cancelled")
    return (
      <Notice tone="warning" state="cancelled">
        <Trans>Payment cancelled: nothing was charged.</Trans>
      </Notice>
    );
  if (status === "refunded")
    return (
      <Notice tone="warning" state="refunded">
        <Trans>This payment was refunded.</Trans>
      </Notice>
    );
  return (
    <Notice tone="error" state="failed">
      <Trans>The payment did not go through: nothing was charged. You can try again.</Trans>
    </Notice>
  );
}

/** What became of a checkout, shown once on the way back from the provider's page. */
export function CheckoutResult({ result }: { result: TCheckoutReturn }) {
  const { t } = useLingui();
  if (result.kind === "cancelled")
    return (
      <Notice tone="warning" state="cancelled">
        <Trans>Payment cancelled: nothing was charged.</Trans>
      </Notice>
    );
  if (result.kind === "return") return <ChapaReturn txRef={result.txRef} />;
  return <Activation waiting={t`Payment received: premium is being activated…`} />;
}
