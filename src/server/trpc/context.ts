import type { TDb } from "../../../db/client";
import type { User } from "../../../db/tables";
import type { TLanguage } from "../../shared/constants";
import type { TCarrierRegistry } from "../integrations/carriers/registry";
import type { TLogger } from "../logger";

export type TChannel = "web" | "rest" | "cli" | "telegram" | "whatsapp";

/** One context shape for every door into the router. */
export type TContext = {
  db: TDb;
  /** The signed-in user, whichever channel brought them; null when anonymous. */
  actor: User | null;
  /** The CLI and jobs run as the system: they may call operator procedures. */
  system: boolean;
  channel: TChannel;
  locale: TLanguage;
  log: TLogger;
  /** The session token hash of the request, for sign-out. */
  sessionHash: string | null;
  /** Client address, for rate limits. */
  ip: string;
  /** Whether the request came over HTTPS (cookies get Secure). */
  secure: boolean;
  /** Response headers a procedure may add to (Set-Cookie). */
  resHeaders: Headers;
  /** The parcel carriers, as configured (real hosts, sandboxes or local emulators). */
  carriers: TCarrierRegistry;
};
