import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { useCallback } from "react";
import type { AppRouter } from "../../../server/trpc/root";
import type { TOrderStatus } from "../../../shared/schemas/ecommerce";
import { trpc } from "../../lib/trpc";

export { serverMessage } from "../marketplaces/shared";

type TOut = inferRouterOutputs<AppRouter>["ecommerce"];
type TIn = inferRouterInputs<AppRouter>["ecommerce"];
export type TIntegration = TOut["integrations"][number];
export type TOrder = TOut["orders"]["items"][number];
export type TOrderDraft = TOut["orderDraft"];
export type TCreateIntegrationInput = TIn["createIntegration"];
export type TUpdateIntegrationInput = TIn["updateIntegration"];

/** Scheduled syncs and webhooks change integrations and orders behind the page's back: it looks again this often. */
export const ECOMMERCE_REFETCH_MS = 60_000;
export const ORDERS_PAGE_SIZE = 20;

/** Credential fields typed as passwords. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "accessToken",
  "webhookSecret",
  "clientSecret",
  "refreshToken",
  "appSecret",
]);

/** A store's name (brand names, not translated). */
export const platformLabel = (platform: string) =>
  ({ shopify: "Shopify", amazon: "Amazon", alibaba: "Alibaba.com" })[platform] ?? platform;

/** The name of a credential field as the store calls it. */
export function useCredentialLabel() {
  const { t } = useLingui();
  const byPlatform: Record<string, Record<string, string>> = {
    shopify: {
      shopDomain: t`Shop domain`,
      clientId: t`Client ID`,
      clientSecret: t`Client secret`,
      accessToken: t`Admin API access token`,
      webhookSecret: t`Webhook signing secret (optional)`,
    },
    amazon: {
      clientId: t`LWA client ID`,
      clientSecret: t`LWA client secret`,
      refreshToken: t`Refresh token`,
      marketplaceId: t`Marketplace ID`,
      region: t`Region`,
    },
    alibaba: {
      appKey: t`App key`,
      appSecret: t`App secret`,
      accessToken: t`Access token`,
      refreshToken: t`Refresh token`,
    },
  };
  return (platform: string, field: string) => byPlatform[platform]?.[field] ?? field;
}

/** Amazon's SP-API regions. */
export function useRegionLabels(): Record<string, string> {
  const { t } = useLingui();
  return { na: t`North America`, eu: t`Europe`, fe: t`Far East` };
}

export function useOrderStatusLabel() {
  const { t } = useLingui();
  const labels: Record<TOrderStatus, string> = {
    pending: t`Pending`,
    processing: t`Processing`,
    synced: t`Synced`,
    converted: t`Converted`,
    cancelled: t`Cancelled`,
  };
  return (status: string) => labels[status as TOrderStatus] ?? status;
}

/** After a change to an integration: the integrations and their orders. */
export function useRefreshEcommerce() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries(trpc.ecommerce.pathFilter()), [queryClient]);
}

/** After an order became a load: the orders, and every load list (the new load is on them). */
export function useRefreshAfterConvert() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.ecommerce.orders.pathFilter()),
        queryClient.invalidateQueries(trpc.loads.pathFilter()),
      ]),
    [queryClient],
  );
}
