import type { TSecretBox } from "../../secrets";
import type { TBoardServices } from "../boards/services";
import { versionedAdapters } from "../versioned";
import { createStoreAdapter } from "./registry";
import type { TStoreAdapter, TStoreSettings } from "./types";

/** What the e-commerce domain reaches stores through: one adapter per integration version (its tokens kept). */
export type TStoreServices = {
  secrets: TSecretBox;
  timeoutMs: number;
  /** Whether an integration's apiBaseUrl may be loopback or private (emulators in tests and demo mode). */
  allowPrivateUrls: boolean;
  /** Demo mode: the emulators' addresses, offered in the Add Integration form as "Sandbox". */
  sandboxUrls: Record<string, string> | null;
  adapter: (key: string, settings: () => TStoreSettings) => TStoreAdapter;
};

export const createStoreServices = (o: {
  secrets: TSecretBox;
  timeoutMs?: number;
  allowPrivateUrls?: boolean;
  sandboxUrls?: Record<string, string> | null;
  create?: (s: TStoreSettings) => TStoreAdapter;
}): TStoreServices => {
  const create = o.create ?? createStoreAdapter;
  return {
    secrets: o.secrets,
    timeoutMs: o.timeoutMs ?? 10_000,
    allowPrivateUrls: o.allowPrivateUrls ?? false,
    sandboxUrls: o.sandboxUrls ?? null,
    adapter: versionedAdapters(create),
  };
};

/**
 * Store services beside the board services of the same process (one secret key, the same rule on private addresses):
 * STORE_TIMEOUT_MS, and in demo mode STORE_SANDBOX_URLS (JSON: platform → emulator address).
 */
export const storeServicesFrom = (boards: TBoardServices, env: Record<string, string | undefined> = process.env) =>
  createStoreServices({
    secrets: boards.secrets,
    timeoutMs: Number(env.STORE_TIMEOUT_MS ?? 10_000),
    allowPrivateUrls: boards.allowPrivateUrls,
    sandboxUrls:
      boards.sandboxUrls && env.STORE_SANDBOX_URLS
        ? (JSON.parse(env.STORE_SANDBOX_URLS) as Record<string, string>)
        : null,
  });
