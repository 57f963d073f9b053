import { loadConfig, type TConfig } from "../../config";
import type { TSecretBox } from "../../secrets";
import { origins, type TBoardServices } from "../boards/services";
import { versionedAdapters } from "../versioned";
import { createStoreAdapter } from "./registry";
import type { TStoreAdapter, TStoreSettings } from "./types";

/** What the e-commerce domain reaches stores through: one adapter per integration version (its tokens kept). */
export type TStoreServices = {
  secrets: TSecretBox;
  timeoutMs: number;
  /**
   * The operator's Sandbox origins: the only addresses an integration's apiBaseUrl may name that are plain http,
   * loopback or private (the emulators in demo mode and tests, SANDBOX_ORIGINS).
   */
  sandboxOrigins: readonly string[];
  /** Demo mode: the emulators' addresses, offered in the Add Integration form as "Sandbox". */
  sandboxUrls: Record<string, string> | null;
  adapter: (key: string, settings: () => TStoreSettings) => TStoreAdapter;
};

export const createStoreServices = (o: {
  secrets: TSecretBox;
  timeoutMs?: number;
  sandboxOrigins?: readonly string[];
  sandboxUrls?: Record<string, string> | null;
  create?: (s: TStoreSettings) => TStoreAdapter;
}): TStoreServices => {
  const create = o.create ?? createStoreAdapter;
  return {
    secrets: o.secrets,
    timeoutMs: o.timeoutMs ?? 10_000,
    sandboxOrigins: origins([...(o.sandboxOrigins ?? []), ...Object.values(o.sandboxUrls ?? {})]),
    sandboxUrls: o.sandboxUrls ?? null,
    adapter: versionedAdapters(create),
  };
};

/**
 * Store services beside the board services of the same process (one secret key, the same Sandbox origins):
 * STORE_TIMEOUT_MS, and in demo mode STORE_SANDBOX_URLS (platform → emulator address, set by the demo launcher).
 */
export const storeServicesFor = (boards: TBoardServices, c: TConfig["stores"]) =>
  createStoreServices({
    secrets: boards.secrets,
    timeoutMs: c.timeoutMs,
    sandboxOrigins: boards.sandboxOrigins,
    sandboxUrls: boards.sandboxUrls && c.sandboxUrls ? c.sandboxUrls : null,
  });

/** Store services beside the boards', from an environment's STORE_* variables (tests give their own). */
export const storeServicesFrom = (boards: TBoardServices, env: Record<string, string | undefined> = process.env) =>
  storeServicesFor(boards, loadConfig(env).stores);
