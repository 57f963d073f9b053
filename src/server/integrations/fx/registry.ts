import type { TConfig } from "../../config";
import { createNbeSource } from "./nbe";

/** The rate source of the configuration; one on this machine's loopback (the demo's emulator) is the Sandbox. */
export const fxSourceFrom = (c: TConfig["fx"]) => {
  const host = URL.parse(c.sourceUrl)?.hostname ?? "";
  const sandbox = host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  return createNbeSource({ baseUrl: c.sourceUrl, timeoutMs: c.timeoutMs, sandbox });
};
