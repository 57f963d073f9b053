import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { useCallback } from "react";
import type { AppRouter } from "../../../server/trpc/root";
import type { TOrderStatus } from "../../../shared/schemas/stores";
import { trpc } from "../../lib/trpc";

export { serverMessage } from "../boards/shared";

type TOut = inferRouterOutputs<AppRouter>["stores"];
type TIn = inferRouterInputs<AppRouter>["stores"];
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
      shopDomain: t({
        message: "Shop domain",
        comment: "Shopify store credential: the store's domain (xxx.myshopify.com)",
      }),
      clientId: t({
        message: "Client ID",
        comment: "Shopify store credential: the Dev Dashboard app's client ID (an identifier, not an account)",
      }),
      clientSecret: t({
        message: "Client secret",
        comment: "Shopify store credential: the Dev Dashboard app's client secret",
      }),
      accessToken: t`Admin API access token`,
      webhookSecret: t`Webhook signing secret (optional)`,
    },
    amazon: {
      clientId: t`LWA client ID`,
      clientSecret: t`LWA client secret`,
      refreshToken: t({ message: "Refresh token", comment: "Amazon store credential: the refresh token" }),
      marketplaceId: t({
        message: "Marketplace ID",
        comment: "Amazon store credential: the marketplace ID (an identifier, not an account)",
      }),
      region: t({
        message: "Region",
        comment: "Amazon store credential: the region (North America, Europe, Far East)",
      }),
    },
    alibaba: {
      appKey: t({ message: "App key", comment: "Alibaba store credential: the app key" }),
      appSecret: t({ message: "App secret", comment: "Alibaba store credential: the app secret" }),
      accessToken: t({ message: "Access token", comment: "Alibaba store credential: the access token" }),
      refreshToken: t({ message: "Refresh token", comment: "Alibaba store credential: the refresh token" }),
    },
  };
  return (platform: string, field: string) => byPlatform[platform]?.[field] ?? field;
}

/** Amazon's SP-API regions. */
export function useRegionLabels(): Record<string, string> {
  const { t } = useLingui();
  return {
    na: t({ message: "North America", comment: "Amazon store region choice: North America" }),
    eu: t({ message: "Europe", comment: "Amazon store region choice: Europe" }),
    fe: t({ message: "Far East", comment: "Amazon store region choice: Far East (Japan, Australia, Singapore)" }),
  };
}

export function useOrderStatusLabel() {
  const { t } = useLingui();
  const labels: Record<TOrderStatus, string> = {
    pending: t({
      message: "Pending",
      comment: "Status badge: a bid waiting for the shipper's answer, or a store order not yet processed",
    }),
    processing: t({ message: "Processing", comment: "Status of a store order: being processed by the store" }),
    synced: t({ message: "Synced", comment: "Status of a store order: imported and up to date" }),
    converted: t`Converted`,
    cancelled: t({ message: "Cancelled", comment: "Status badge of a load or an order: cancelled" }),
  };
  return (status: string) => labels[status as TOrderStatus] ?? status;
}

/** After a change to an integration: the integrations and their orders. */
export function useRefreshEcommerce() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries(trpc.stores.pathFilter()), [queryClient]);
}

/** After an order became a load: the orders, and every load list (the new load is on them). */
export function useRefreshAfterConvert() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.stores.orders.pathFilter()),
        queryClient.invalidateQueries(trpc.loads.pathFilter()),
      ]),
    [queryClient],
  );
}
