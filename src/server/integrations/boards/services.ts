import { secretKeyFileFor, secretsFromEnv, type TSecretBox } from "../../secrets";
import { originOf } from "../http/guard";
import { versionedAdapters } from "../versioned";
import { createBoardAdapter } from "./registry";
import type { TBoardResult, TBoardSettings, TLoadBoardAdapter } from "./types";

/**
 * What the marketplace domain reaches the boards through, once per process: the secret box that opens stored
 * credentials, one adapter per configuration version (so each keeps its token and its hourly budget), a short cache of
 * live answers (the board's list and its counters ask once), and the time limits.
 */
export type TBoardServices = {
  secrets: TSecretBox;
  /** One board call's time limit. */
  timeoutMs: number;
  /** How long the merged load board waits for live boards before it answers without the late ones. */
  deadlineMs: number;
  /**
   * The operator's Sandbox origins: the only addresses a configuration may point at that are plain http, loopback or
   * private (the emulators in demo mode and tests, SANDBOX_ORIGINS). Everything else must be public https.
   */
  sandboxOrigins: readonly string[];
  /** Demo mode: the local emulators' addresses, offered in the Add Marketplace form as "Sandbox". */
  sandboxUrls: Record<string, string> | null;
  /**
   * The operator's 123Loadboard API app (LOADBOARD123_CLIENT_ID and LOADBOARD123_CLIENT_SECRET): users connect their
   * 123Loadboard accounts to it. Null when not set (a configuration may then bring its own app's client).
   */
  loadboard123App: { clientId: string; clientSecret: string } | null;
  /** The adapter of a configuration; `key` changes when the configuration does (id and updatedAt). */
  adapter: (key: string, settings: () => TBoardSettings) => TLoadBoardAdapter;
  /** Live answers kept for `liveCacheMs`, by configuration version and query. */
  cached: (key: string, fetch: () => Promise<TBoardResult>) => Promise<TBoardResult>;
};

export const createBoardServices = (o: {
  secrets: TSecretBox;
  timeoutMs?: number;
  deadlineMs?: number;
  sandboxOrigins?: readonly string[];
  liveCacheMs?: number;
  create?: (s: TBoardSettings) => TLoadBoardAdapter;
  sandboxUrls?: Record<string, string> | null;
  loadboard123App?: { clientId: string; clientSecret: string } | null;
}): TBoardServices => {
  const live = new Map<string, { at: number; value: Promise<TBoardResult> }>();
  const liveCacheMs = o.liveCacheMs ?? 60_000;
  const create = o.create ?? createBoardAdapter;
  return {
    secrets: o.secrets,
    timeoutMs: o.timeoutMs ?? 8000,
    deadlineMs: o.deadlineMs ?? 4000,
    sandboxOrigins: origins([...(o.sandboxOrigins ?? []), ...Object.values(o.sandboxUrls ?? {})]),
    sandboxUrls: o.sandboxUrls ?? null,
    loadboard123App: o.loadboard123App ?? null,
    adapter: versionedAdapters(create),
    cached: (key, fetch) => {
      const now = Date.now();
      for (const [k, v] of live) if (now - v.at > liveCacheMs) live.delete(k);
      const hit = live.get(key);
      if (hit) return hit.value;
      const value = fetch();
      live.set(key, { at: now, value });
      // A failure is not kept: the next page view asks the board again.
      value.catch(() => live.delete(key));
      return value;
    },
  };
};

/** The distinct origins of some URLs; a value that is not a URL is left out. */
export const origins = (urls: readonly string[]) => [
  ...new Set(urls.map((u) => originOf(u.trim())).filter((o): o is string => o !== null)),
];

/**
 * SANDBOX_ORIGINS: the operator's own hosts that board and store configurations may point at although they are plain
 * http, loopback or private (an emulator, a proxy on the private network). Comma-separated origins; a value that is
 * not one stops the start, naming the variable. BOARD_ALLOW_PRIVATE_URLS, which let any private address through, is
 * refused with a pointer to it.
 */
export const sandboxOriginsFromEnv = (env: Record<string, string | undefined>) => {
  if (env.BOARD_ALLOW_PRIVATE_URLS)
    throw new Error(
      "BOARD_ALLOW_PRIVATE_URLS is no longer read: list the private hosts configurations may use in SANDBOX_ORIGINS (e.g. http://10.0.0.7:8080)",
    );
  const given = (env.SANDBOX_ORIGINS ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of given)
    if (!/^https?:\/\/[^/?#@]+\/?$/.test(v) || originOf(v) === null)
      throw new Error(`SANDBOX_ORIGINS must list origins such as http://10.0.0.7:8080 (got "${v}")`);
  return origins(given);
};

/**
 * LOADBOARD123_CLIENT_ID and LOADBOARD123_CLIENT_SECRET: the operator's 123Loadboard app, both or neither (one alone
 * stops the start, naming the other).
 */
export const loadboard123AppFromEnv = (env: Record<string, string | undefined>) => {
  const clientId = env.LOADBOARD123_CLIENT_ID?.trim() ?? "";
  const clientSecret = env.LOADBOARD123_CLIENT_SECRET?.trim() ?? "";
  if (!clientId && !clientSecret) return null;
  if (!clientId) throw new Error("LOADBOARD123_CLIENT_SECRET is set without LOADBOARD123_CLIENT_ID");
  if (!clientSecret) throw new Error("LOADBOARD123_CLIENT_ID is set without LOADBOARD123_CLIENT_SECRET");
  return { clientId, clientSecret };
};

/**
 * Board services from the environment: BOARD_TIMEOUT_MS, BOARD_DEADLINE_MS, SANDBOX_ORIGINS, LOADBOARD123_CLIENT_ID
 * and _SECRET, and in demo mode BOARD_SANDBOX_URLS (JSON: provider → emulator address, set when the emulators start).
 */
export const boardServicesFromEnv = (env: Record<string, string | undefined>, secrets: TSecretBox, demo = false) =>
  createBoardServices({
    secrets,
    timeoutMs: Number(env.BOARD_TIMEOUT_MS ?? 8000),
    deadlineMs: Number(env.BOARD_DEADLINE_MS ?? 4000),
    sandboxOrigins: sandboxOriginsFromEnv(env),
    sandboxUrls: demo && env.BOARD_SANDBOX_URLS ? (JSON.parse(env.BOARD_SANDBOX_URLS) as Record<string, string>) : null,
    loadboard123App: loadboard123AppFromEnv(env),
  });

/** Board services for a database: the secret key from MYTESS_SECRET_KEY or the key file beside the database. */
export const boardServicesForDatabase = (
  env: Record<string, string | undefined>,
  databasePath: string,
  demo = false,
): TBoardServices => boardServicesFromEnv(env, secretsFromEnv(env, secretKeyFileFor(databasePath)), demo);
