import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { useCallback } from "react";
import type { AppRouter } from "../../../server/trpc/root";
import type { TMarketplaceProvider } from "../../../shared/schemas/boards";
import { errorInfo, trpc } from "../../lib/trpc";

type TOut = inferRouterOutputs<AppRouter>["boards"];
type TIn = inferRouterInputs<AppRouter>["boards"];
export type TMarketplace = TOut["list"][number];
export type TSyncRun = TOut["history"][number];
export type TSyncStatus = TOut["syncStatus"];
export type TSearchAnswer = TOut["search"];
export type TSearchResult = TSearchAnswer["results"][number];
export type TCreateInput = TIn["create"];
export type TUpdateInput = TIn["update"];
export type TSearchInput = TIn["search"];
export type TLane = TOut["lanes"][number];
export type TCreateLaneInput = TIn["createLane"];
export type TUpdateLaneInput = TIn["updateLane"];

/** The production address suggested when a provider is picked (editable; "other" has none). */
export const SUGGESTED_BASE_URL: Record<TMarketplaceProvider, string> = {
  dat: "https://freight.api.prod.dat.com",
  truckstop: "https://webservices.truckstop.com",
  "123loadboard": "https://api.123loadboard.com",
  other: "",
};

/** Credential fields typed as passwords. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(["clientSecret", "password", "apiKey"]);
/** Credential fields that are e-mail addresses. */
export const EMAIL_FIELDS: Partial<Record<TMarketplaceProvider, readonly string[]>> = {
  dat: ["clientId", "userEmail"],
};

/** A board's display name; `short` names the JSON feed "Load feed" (for badges). */
export function useProviderLabel() {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    dat: "DAT",
    truckstop: "Truckstop",
    "123loadboard": "123Loadboard",
    other: t`Other (JSON load feed)`,
  };
  const feed = t({
    message: "Load feed",
    comment: "Board type: a JSON address that lists loads (a feed of loads, not food)",
  });
  return (provider: string, short = false) => (short && provider === "other" ? feed : (labels[provider] ?? provider));
}

/** The name of a credential field as the provider calls it. */
export function useCredentialLabel() {
  const { t } = useLingui();
  const byProvider: Record<string, Record<string, string>> = {
    dat: {
      clientId: t`Service account email`,
      clientSecret: t`Service account password`,
      userEmail: t`DAT user email`,
    },
    truckstop: {
      username: t({ message: "Username", comment: "Truckstop credential: the user name" }),
      password: t({
        message: "Password",
        comment: "Label of a password field (sign in, sign up, a load board's credentials)",
      }),
      integrationId: t({
        message: "Integration ID",
        comment: "Truckstop credential: the integration ID (an identifier, not an account)",
      }),
    },
    "123loadboard": {
      clientId: t({
        message: "Client ID",
        comment: "123Loadboard credential: the client ID (an identifier, not an account)",
      }),
      clientSecret: t({ message: "Client secret", comment: "123Loadboard credential: the client secret" }),
    },
    other: {
      apiKey: t({ message: "API key", comment: "Credential of a JSON load feed: the key sent with each request" }),
    },
  };
  return (provider: string, field: string) => byProvider[provider]?.[field] ?? field;
}

/** The server's own (already translated) message, or null when the server did not answer. */
export const serverMessage = (err: unknown): string | null => {
  const info = errorInfo(err);
  return info.status > 0 && info.message ? info.message : null;
};

/** After a change: the board list, sync status and history, and the load board (synced loads come and go). */
export function useRefreshMarketplaces() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.boards.pathFilter()),
        queryClient.invalidateQueries(trpc.loads.pathFilter()),
      ]),
    [queryClient],
  );
}
