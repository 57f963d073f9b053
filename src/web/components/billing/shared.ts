import { useLingui } from "@lingui/react/macro";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useCallback } from "react";
import type { AppRouter } from "../../../server/trpc/root";
import { trpc } from "../../lib/trpc";

type TOut = inferRouterOutputs<AppRouter>["billing"];
export type TSubscription = TOut["status"];
export type TPrice = TOut["prices"]["prices"][number];
export type TProviderState = TOut["prices"]["providers"][number];
export type TPayment = TOut["payments"][number];
export type TBillingProvider = NonNullable<TSubscription["provider"]>;

/** The subscription status is fresh for 30 s. */
export const subscriptionStatusOptions = () =>
  trpc.billing.status.queryOptions(undefined, { staleTime: 30_000, retry: 1 });

/** After a payment or a cancellation: this page's data and the user's (the header badge reads user.subscriptionStatus). */
export const refreshSubscription = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries(trpc.billing.pathFilter()),
    queryClient.invalidateQueries(trpc.user.pathFilter()),
  ]);

export function useRefreshSubscription() {
  const queryClient = useQueryClient();
  return useCallback(() => refreshSubscription(queryClient), [queryClient]);
}

/** A paid period that has not ended (a trial is not one). */
export const isPaid = (s: TSubscription, now = Date.now()) =>
  s.currentPeriodEnd != null && new Date(s.currentPeriodEnd).getTime() > now;

/** Who collects the payments: brand names as they are, the support grant in the reader's language. */
export function useProviderName() {
  const { t } = useLingui();
  return (provider: string | null | undefined) => {
    if (provider === "stripe") return "Stripe";
    if (provider === "chapa") return "Chapa";
    if (provider === "grant")
      return t({ message: "Support grant", comment: "Payment list: premium given free by MyTess support" });
    return provider ?? "";
  };
}
