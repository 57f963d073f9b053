import type { TDb } from "../../../db/client";
import type { User } from "../../../db/tables";
import type { TApiScope } from "../../shared/api-scopes";
import type { TLanguage } from "../../shared/constants";
import type { TServices } from "../services";

export type TChannel = "web" | "rest" | "cli" | "telegram" | "whatsapp" | "worker";

/** The parts of a context that only an HTTP request has. */
export type THttpContext = {
  /** The session token hash of the request, for sign-out. */
  sessionHash: string | null;
  /** Client address, for rate limits. */
  ip: string;
  /** Whether the request came over HTTPS (cookies get Secure). */
  secure: boolean;
  /** Response headers a procedure may add to (Set-Cookie). */
  resHeaders: Headers;
  /** The site's public origin (PUBLIC_URL, else the request's), for addresses sent to payment providers. */
  origin: string;
  /** The country the device suggests (time zone, languages), or null: a new account's currency and units follow it. */
  region?: string | null;
};

/** One context shape for every door into the router: web and REST requests, the CLI, the bots and the job worker. */
export type TContext = {
  db: TDb;
  /** The signed-in user, whichever channel brought them; null when anonymous. */
  actor: User | null;
  /** The CLI and jobs run as the system: they may call operator procedures. */
  system: boolean;
  channel: TChannel;
  /** The caller's language: answers and errors are in it. */
  locale: TLanguage;
  services: TServices;
  /** Present for HTTP requests only. */
  http: THttpContext | null;
  /** The API token a REST call was made with (its scopes were checked by the REST adapter); null otherwise. */
  apiToken: { id: number; scopes: TApiScope[] } | null;
};

/** The context for a call through any door; what a door does not have (HTTP parts, an actor) is simply absent. */
export const createContext = (c: {
  db: TDb;
  channel: TChannel;
  locale: TLanguage;
  services: TServices;
  actor?: User | null;
  system?: boolean;
  http?: THttpContext | null;
  apiToken?: TContext["apiToken"];
}): TContext => ({
  db: c.db,
  actor: c.actor ?? null,
  system: c.system ?? false,
  channel: c.channel,
  locale: c.locale,
  services: c.services,
  http: c.http ?? null,
  apiToken: c.apiToken ?? null,
});
