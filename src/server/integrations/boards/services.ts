import { secretKeyFileFor, secretsFromEnv, type TSecretBox } from "../../secrets";
import { versionedAdapters } from "../versioned";
import { createBoardAdapter } from "./registry";
import type { TBoardLoad, TBoardSettings, TLoadBoardAdapter } from "./types";

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
  /** Whether configurations may point at loopback and private addresses (emulators in tests and demo mode). */
  allowPrivateUrls: boolean;
  /** Demo mode: the local emulators' addresses, offered in the Add Marketplace form as "Sandbox". */
  sandboxUrls: Record<string, string> | null;
  /** The adapter of a configuration; `key` changes when the configuration does (id and updatedAt). */
  adapter: (key: string, settings: () => TBoardSettings) => TLoadBoardAdapter;
  /** Live answers kept for `liveCacheMs`, by configuration version and query. */
  cached: (key: string, fetch: () => Promise<TBoardLoad[]>) => Promise<TBoardLoad[]>;
};

export const createBoardServices = (o: {
  secrets: TSecretBox;
  timeoutMs?: number;
  deadlineMs?: number;
  allowPrivateUrls?: boolean;
  liveCacheMs?: number;
  create?: (s: TBoardSettings) => TLoadBoardAdapter;
  sandboxUrls?: Record<string, string> | null;
}): TBoardServices => {
  const live = new Map<string, { at: number; value: Promise<TBoardLoad[]> }>();
  const liveCacheMs = o.liveCacheMs ?? 60_000;
  const create = o.create ?? createBoardAdapter;
  return {
    secrets: o.secrets,
    timeoutMs: o.timeoutMs ?? 8000,
    deadlineMs: o.deadlineMs ?? 4000,
    allowPrivateUrls: o.allowPrivateUrls ?? false,
    sandboxUrls: o.sandboxUrls ?? null,
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

/**
 * Board services from the environment: BOARD_TIMEOUT_MS, BOARD_DEADLINE_MS, BOARD_ALLOW_PRIVATE_URLS, and in demo mode
 * BOARD_SANDBOX_URLS (JSON: provider → emulator address, set when the emulators start).
 */
export const boardServicesFromEnv = (env: Record<string, string | undefined>, secrets: TSecretBox, demo = false) =>
  createBoardServices({
    secrets,
    timeoutMs: Number(env.BOARD_TIMEOUT_MS ?? 8000),
    deadlineMs: Number(env.BOARD_DEADLINE_MS ?? 4000),
    allowPrivateUrls: demo || env.BOARD_ALLOW_PRIVATE_URLS === "1",
    sandboxUrls: demo && env.BOARD_SANDBOX_URLS ? (JSON.parse(env.BOARD_SANDBOX_URLS) as Record<string, string>) : null,
  });

/** Board services for a database: the secret key from MYTESS_SECRET_KEY or the key file beside the database. */
export const boardServicesForDatabase = (
  env: Record<string, string | undefined>,
  databasePath: string,
  demo = false,
): TBoardServices => boardServicesFromEnv(env, secretsFromEnv(env, secretKeyFileFor(databasePath)), demo);
