import { loadConfig, parseSandboxOrigins, type TConfig } from "../../config";
import { createSecretBox, secretKeyFileFor, secretKeyFrom, type TSecretBox } from "../../secrets";
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
  /** The most JSON the REST board's page cache keeps per database handle, in bytes; 0: pages are not kept. */
  pageCacheBytes: number;
  /** Live answers kept for `liveCacheMs`, by configuration version and query. */
  cached: (key: string, search: () => Promise<TBoardResult>) => Promise<TBoardResult>;
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
  pageCacheBytes?: number;
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
    pageCacheBytes: o.pageCacheBytes ?? 128 * 1024 * 1024,
    adapter: versionedAdapters(create),
    cached: (key, search) => {
      const now = Date.now();
      for (const [k, v] of live) if (now - v.at > liveCacheMs) live.delete(k);
      const hit = live.get(key);
      if (hit) return hit.value;
      const value = search();
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

/** SANDBOX_ORIGINS as the configuration reads it (a value that is not an origin stops the start, naming it). */
export const sandboxOriginsFromEnv = (env: Record<string, string | undefined>) => parseSandboxOrigins(env);

/**
 * Board services as configured: BOARD_TIMEOUT_MS, BOARD_DEADLINE_MS, SANDBOX_ORIGINS, the operator's 123Loadboard app
 * (LOADBOARD123_CLIENT_ID and LOADBOARD123_CLIENT_SECRET) and in demo mode BOARD_SANDBOX_URLS (provider → emulator
 * address, set by the demo launcher). `secrets` seals their credentials.
 */
export const boardServicesFrom = (c: Pick<TConfig, "boards" | "demo">, secrets: TSecretBox) =>
  createBoardServices({
    secrets,
    timeoutMs: c.boards.timeoutMs,
    deadlineMs: c.boards.deadlineMs,
    sandboxOrigins: c.boards.sandboxOrigins,
    sandboxUrls: c.demo ? c.boards.sandboxUrls : null,
    loadboard123App: c.boards.loadboard123App,
    pageCacheBytes: c.boards.pageCacheBytes,
  });

/** Board services for a database, from an environment: the secret key from it or the key file beside the database. */
export const boardServicesForDatabase = (
  env: Record<string, string | undefined>,
  databasePath: string,
  demo = false,
): TBoardServices => {
  const config = loadConfig(env);
  return boardServicesFrom(
    { ...config, demo },
    createSecretBox(secretKeyFrom(config.secretKey, secretKeyFileFor(databasePath))),
  );
};
