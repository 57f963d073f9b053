// Every environment variable the server, its worker, the CLI and the WhatsApp Web bridge read, checked once at start
// into one typed configuration: a value that cannot be used stops the start with the variable named, instead of a
// feature failing later. Each section feeds the part it configures (createServices builds the integrations from them).
// The README's Configuration table lists the same variables with the same defaults.
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";

const ROOT = join(import.meta.dir, "..", "..");

type TEnv = Record<string, string | undefined>;

/** A value as given: surrounding spaces dropped, an empty value read as unset. */
const given = (env: TEnv, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/** Why a variable cannot be used; its message starts with the variable's name. */
export class ConfigError extends Error {}

/** Collects every unusable variable of one read, so one start names them all. */
const problems = () => {
  const list: string[] = [];
  return {
    list,
    add: (message: string) => list.push(message),
    check: <T>(name: string, schema: z.ZodType<T>, value: string | undefined): T | undefined => {
      if (value === undefined) return undefined;
      const r = schema.safeParse(value);
      if (r.success) return r.data;
      for (const issue of r.error.issues)
        list.push(issue.message.startsWith(name) ? issue.message : `${name} ${issue.message} (got "${value}")`);
      return undefined;
    },
  };
};

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, { message: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `must be a whole number from ${min} to ${max}` });
const milliseconds = wholeNumber(1);
const flag = z
  .string()
  .regex(/^(1|0|true|false)$/i, { message: "must be 1 or 0 (or true or false)" })
  .transform((v) => v === "1" || v.toLowerCase() === "true");
const httpUrl = z.string().refine(
  (v) => {
    const u = URL.parse(v);
    return u !== null && (u.protocol === "http:" || u.protocol === "https:");
  },
  { message: "must be an http or https URL" },
);
/** An http origin on the loopback interface (the demo launcher's own emulators). */
const loopbackOrigin = z.string().refine(
  (v) => {
    const u = URL.parse(v);
    return (
      u !== null &&
      u.protocol === "http:" &&
      u.origin === v.replace(/\/$/, "") &&
      ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname)
    );
  },
  { message: "must be an http origin on loopback, such as http://127.0.0.1:4600" },
);
const urlMap = z.string().transform((v, ctx) => {
  try {
    const parsed = JSON.parse(v) as unknown;
    const map = z.record(z.string(), httpUrl).parse(parsed);
    return map;
  } catch {
    ctx.addIssue({ code: "custom", message: "must be a JSON object of names to http URLs" });
    return z.NEVER;
  }
});

/** An origin (scheme, host, port) of a URL, or null when it is not one. */
const originOf = (url: string) => {
  const u = URL.parse(url);
  return u && u.origin !== "null" ? u.origin : null;
};

/**
 * `MAP_ORIGINS`: space- or comma-separated https origins ("https://tiles.example.com"). A value that is not an https
 * origin stops the start with the variable named, rather than a map that silently fails under the CSP.
 */
/** The REST board's page cache per web process, in MB of JSON, unless BOARD_PAGE_CACHE_MB says otherwise. */
export const BOARD_PAGE_CACHE_MB = 128;

export const parseMapOrigins = (value: string | undefined): string[] => {
  const origins: string[] = [];
  for (const item of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const url = URL.parse(item);
    if (url?.protocol !== "https:" || url.origin !== item.replace(/\/$/, "")) {
      throw new ConfigError(`MAP_ORIGINS: "${item}" is not an https origin such as https://tiles.example.com`);
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
};

/**
 * SANDBOX_ORIGINS: the operator's own hosts that board and store configurations may point at although they are plain
 * http, loopback or private (an emulator, a proxy on the private network). Comma-separated origins; a value that is
 * not one stops the start, naming the variable. BOARD_ALLOW_PRIVATE_URLS, which let any private address through, is
 * refused with a pointer to it.
 */
export const parseSandboxOrigins = (env: TEnv): string[] => {
  if (env.BOARD_ALLOW_PRIVATE_URLS)
    throw new ConfigError(
      "BOARD_ALLOW_PRIVATE_URLS is no longer read: list the private hosts configurations may use in SANDBOX_ORIGINS (e.g. http://10.0.0.7:8080)",
    );
  const list = (env.SANDBOX_ORIGINS ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of list)
    if (!/^https?:\/\/[^/?#@]+\/?$/.test(v) || originOf(v) === null)
      throw new ConfigError(`SANDBOX_ORIGINS must list origins such as http://10.0.0.7:8080 (got "${v}")`);
  return [...new Set(list.map((v) => originOf(v)!))];
};

/** The push services browsers subscribe at, unless WEB_PUSH_HOSTS replaces the list. */
export const DEFAULT_WEB_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.services.mozilla.com",
  "*.push.apple.com",
  "*.notify.windows.com",
] as const;

/**
 * WEB_PUSH_HOSTS: the push services' hosts subscriptions may be at, comma-separated ("fcm.googleapis.com,
 * *.push.apple.com"), replacing the browsers' list; a value that is not a host name stops the start, naming it.
 */
export const parseWebPushHosts = (env: TEnv): readonly string[] => {
  if (!env.WEB_PUSH_HOSTS?.trim()) return DEFAULT_WEB_PUSH_HOSTS;
  const hosts = env.WEB_PUSH_HOSTS.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of hosts)
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(h))
      throw new ConfigError(
        `WEB_PUSH_HOSTS must list host names such as fcm.googleapis.com or *.push.apple.com (got "${h}")`,
      );
  return hosts;
};

/**
 * LOADBOARD123_CLIENT_ID and LOADBOARD123_CLIENT_SECRET: the operator's 123Loadboard app, both or neither (one alone
 * stops the start, naming the other).
 */
export const parseLoadboard123App = (env: TEnv) => {
  const clientId = env.LOADBOARD123_CLIENT_ID?.trim() ?? "";
  const clientSecret = env.LOADBOARD123_CLIENT_SECRET?.trim() ?? "";
  if (!clientId && !clientSecret) return null;
  if (!clientId) throw new ConfigError("LOADBOARD123_CLIENT_SECRET is set without LOADBOARD123_CLIENT_ID");
  if (!clientSecret) throw new ConfigError("LOADBOARD123_CLIENT_ID is set without LOADBOARD123_CLIENT_SECRET");
  return { clientId, clientSecret };
};

/** A 32-byte key given as base64 or 64 hex digits (MYTESS_SECRET_KEY, or the key file). */
export const parseSecretKey = (text: string, from: string): Buffer => {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  if (key.length !== 32) throw new ConfigError(`${from} must be 32 bytes, in base64 or as 64 hex digits`);
  return key;
};

const b64urlBytes = (v: string | undefined, n: number) =>
  v !== undefined && /^[A-Za-z0-9_-]+=*$/.test(v) && Buffer.from(v, "base64url").length === n;

/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither, as web-push generates them; null when neither is set. */
export const parseVapidKeys = (env: TEnv): { publicKey: string; privateKey: string } | null => {
  if (!env.VAPID_PUBLIC_KEY && !env.VAPID_PRIVATE_KEY) return null;
  const wrong = [
    b64urlBytes(env.VAPID_PUBLIC_KEY, 65) ? null : "publicKey must be 65 bytes in base64url",
    b64urlBytes(env.VAPID_PRIVATE_KEY, 32) ? null : "privateKey must be 32 bytes in base64url",
  ].filter(Boolean);
  if (wrong.length)
    throw new ConfigError(
      `VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must both be set, as web-push generates them: ${wrong.join("; ")}`,
    );
  return { publicKey: env.VAPID_PUBLIC_KEY!, privateKey: env.VAPID_PRIVATE_KEY! };
};

const isLoopback = (url: string) => {
  const host = new URL(url).hostname;
  return host === "localhost" || host.startsWith("127.") || host === "[::1]";
};

/**
 * Push services want a contact in the VAPID token (mailto: or https:). Apple refuses localhost, so PUBLIC_URL serves
 * only when it is a public https origin; otherwise a mailto: placeholder that operators should replace.
 */
export const parseVapidSubject = (env: TEnv) => {
  if (env.VAPID_SUBJECT) {
    if (!/^(mailto:|https:)/.test(env.VAPID_SUBJECT))
      throw new ConfigError(`VAPID_SUBJECT: "${env.VAPID_SUBJECT}" is not a mailto: address or an https: URL`);
    return env.VAPID_SUBJECT;
  }
  const pub = env.PUBLIC_URL;
  if (pub?.startsWith("https://") && !isLoopback(pub)) return new URL(pub).origin;
  return "mailto:postmaster@localhost";
};

/** The secret MyTess and the WhatsApp Web bridge sign with, when WHATSAPP_WEB_SECRET gives it. */
export const parseWhatsAppWebSecret = (env: TEnv) => {
  if (env.WHATSAPP_WEB_SECRET === undefined) return null;
  if (env.WHATSAPP_WEB_SECRET.length < 16) throw new ConfigError("WHATSAPP_WEB_SECRET must be at least 16 characters");
  return env.WHATSAPP_WEB_SECRET;
};

/**
 * The secret Telegram sends with every webhook call (X-Telegram-Bot-Api-Secret-Token): TELEGRAM_WEBHOOK_SECRET, which
 * a webhook deployment must set (1–256 characters of A-Z, a-z, 0-9, _ and -).
 */
export const parseTelegramWebhookSecret = (env: TEnv) => {
  const secret = env.TELEGRAM_WEBHOOK_SECRET ?? "";
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret))
    throw new ConfigError(
      "TELEGRAM_WEBHOOK_SECRET (1–256 of A-Z, a-z, 0-9, _ and -) is required with TELEGRAM_WEBHOOK_URL",
    );
  return secret;
};

export const TELEGRAM_API_ROOT = "https://api.telegram.org";
export const WHATSAPP_API_ROOT = "https://graph.facebook.com";
/** The Graph API version we have read and tested against; a version is a path segment, so moving is deliberate. */
export const WHATSAPP_GRAPH_VERSION = "v23.0";
/** Where the WhatsApp Web bridge listens unless WHATSAPP_WEB_BRIDGE_URL says otherwise: loopback, beside the worker. */
export const WHATSAPP_WEB_BRIDGE_URL = "http://127.0.0.1:3901";
export const STRIPE_API_BASE = "https://api.stripe.com";
export const CHAPA_API_BASE = "https://api.chapa.co";
export const TWILIO_API_BASE = "https://api.twilio.com";
export const AFROMESSAGE_API_BASE = "https://api.afromessage.com";
/** The National Bank of Ethiopia's rates API (daily reference rates in birr per unit of each foreign currency). */
export const FX_SOURCE_URL = "https://api.nbe.gov.et";
/**
 * A new USPS app may make about 60 requests an hour across every v3 endpoint, token requests included (USPS grants
 * more on request); USPS_HOURLY_QUOTA says what this app has.
 */
export const USPS_DEFAULT_HOURLY_QUOTA = 60;
export const CARRIER_BASE_URLS = {
  fedex: "https://apis.fedex.com",
  ups: "https://onlinetools.ups.com",
  usps: "https://apis.usps.com",
} as const;

const ROLES = ["all", "web", "worker"] as const;
const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
const LANGUAGES = ["en", "am", "om"] as const;

/** A carrier's settings as given; the registry says what a carrier lacks (and so is not configured). */
export type TCarrierCredentials = {
  clientId: string | null;
  clientSecret: string | null;
  accountNumber: string | null;
  baseUrl: string;
};

export type TConfig = {
  port: number;
  /** The address to listen on (HOST). */
  host: string;
  databasePath: string;
  /** PostgreSQL instead of the SQLite file (DATABASE_URL; the database layer reads it when it opens). */
  databaseUrl: string | null;
  /** Where the built web app lives; absent in API-only tests. */
  webDist: string;
  /** Trust X-Forwarded-For / X-Forwarded-Proto from a reverse proxy. */
  trustProxy: boolean;
  demo: boolean;
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  /** The public origin used for redirect URIs; derived from the request when unset. */
  publicUrl: string | null;
  /** Outside origins the maps may fetch their style, tiles, glyphs and sprites from (the page's CSP connect-src). */
  mapOrigins: string[];
  /** Which parts run in this process: HTTP, the job worker, or both (MYTESS_ROLE; `--role` wins). */
  role: (typeof ROLES)[number];
  /** Server processes sharing the port (WEB_CONCURRENCY; one per core by default). */
  webConcurrency: number;
  /** A server process the primary started (MYTESS_SERVER_CHILD, set by the primary itself): HTTP only. */
  serverChild: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /** The key sealing secrets in the database (MYTESS_SECRET_KEY); else a key file beside the database. */
  secretKey: string | null;
  /**
   * Where uploaded files go (STORAGE_URL): a folder (`file:///path`; by default `files/` beside the database) or an
   * S3-compatible bucket (`s3://bucket/prefix` with S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).
   */
  storage: TStorageConfig;
  carriers: {
    timeoutMs: number;
    /** USPS's requests an hour (a new app's quota, 60, unless USPS_HOURLY_QUOTA; 0 for none). */
    uspsHourlyQuota: number;
    fedex: TCarrierCredentials;
    ups: TCarrierCredentials;
    usps: TCarrierCredentials;
  };
  boards: {
    timeoutMs: number;
    deadlineMs: number;
    sandboxOrigins: string[];
    /** Demo mode: provider → the board emulator's address (BOARD_SANDBOX_URLS, set by the demo launcher). */
    sandboxUrls: Record<string, string> | null;
    /**
     * The operator's 123Loadboard API app (LOADBOARD123_CLIENT_ID and LOADBOARD123_CLIENT_SECRET, both or neither):
     * users connect their 123Loadboard accounts to it.
     */
    loadboard123App: { clientId: string; clientSecret: string } | null;
    /** The REST board's page cache per web process, in bytes of JSON (BOARD_PAGE_CACHE_MB; 0 turns it off). */
    pageCacheBytes: number;
  };
  stores: {
    timeoutMs: number;
    /** Demo mode: platform → the store emulator's address (STORE_SANDBOX_URLS, set by the demo launcher). */
    sandboxUrls: Record<string, string> | null;
  };
  telegram: {
    token: string | null;
    apiRoot: string;
    username: string | null;
    webhookUrl: string | null;
    /** Checked (and required) only with webhookUrl. */
    webhookSecret: string | null;
  };
  whatsapp: {
    transport: "cloud" | "web";
    accessToken: string | null;
    phoneNumberId: string | null;
    apiRoot: string;
    graphVersion: string;
    appSecret: string | null;
    verifyToken: string | null;
    web: {
      secret: string | null;
      bridgeUrl: string;
      sessionDir: string | null;
      inboundUrl: string | null;
      /** How long the bridge gives Chromium to write a linked session before closing (the bridge reads it). */
      settleMs: number | null;
    };
    chromiumPath: string | null;
  };
  webPush: {
    vapidKeys: { publicKey: string; privateKey: string } | null;
    subject: string;
    caFile: string | null;
    hosts: readonly string[];
    sandboxOrigin: string | null;
  };
  notifyTimeoutMs: number;
  mail: {
    /** The SMTP server mail goes out through (SMTP_URL, smtp:// or smtps://); without it no mail is sent. */
    smtpUrl: string | null;
    /** The sender of every mail (MAIL_FROM). */
    from: string;
    /** Demo mode: the folder the launcher's mail catcher writes what it receives to (MAIL_SANDBOX_DIR). */
    sandboxDir: string | null;
  };
  sms: {
    twilio: { accountSid: string | null; authToken: string | null; from: string | null; apiBase: string };
    afromessage: { token: string | null; identifierId: string | null; sender: string | null; apiBase: string };
    /** SMS codes the whole deployment sends in any 24 hours, at most (SMS_DAILY_LIMIT): a bound on the bill. */
    dailyLimit: number;
    timeoutMs: number;
    /** Demo mode: the folder the launcher's SMS emulators write what they receive to (SMS_SANDBOX_DIR). */
    sandboxDir: string | null;
  };
  payments: {
    timeoutMs: number;
    /** The platform's fee on a freight payment, in percent of the agreed amount (PLATFORM_FEE_PERCENT, default 3). */
    platformFeePercent: number;
    stripe: {
      secretKey: string | null;
      webhookSecret: string | null;
      prices: { USD?: string; EUR?: string };
      apiBase: string;
    };
    chapa: { secretKey: string | null; webhookSecret: string | null; apiBase: string };
    /** Premium's monthly price in birr as the operator sets it (PREMIUM_PRICE_ETB); null: derived from the day's rate. */
    premiumPriceEtb: number | null;
  };
  /** Exchange rates: the National Bank of Ethiopia's API or a service answering in its shape (FX_SOURCE_URL). */
  fx: { sourceUrl: string; timeoutMs: number };
  /**
   * Demo mode's Sandbox webhook receiver (WEBHOOK_SANDBOX_URL, an http origin on loopback, set by the demo launcher):
   * the one private address an endpoint may name, and only in demo mode.
   */
  webhooks: {
    sandboxUrl: string | null;
    /** Demo mode: the folder the Sandbox receiver writes what it receives to (WEBHOOK_SANDBOX_DIR), for /dev/webhooks. */
    sandboxDir: string | null;
  };
  cli: {
    language: (typeof LANGUAGES)[number];
    calendar: "gregorian" | "ethiopic";
    ethiopianTime: boolean;
    /** Who runs the CLI, recorded with a support grant (USER). */
    operator: string | null;
  };
  /** Demo mode's Telegram and WhatsApp emulators on fixed ports (DEMO_TELEGRAM_PORT, DEMO_WHATSAPP_PORT). */
  demoPorts: { telegram: number | null; whatsapp: number | null };
  /** A test run (NODE_ENV=test, which `bun test` sets): the settings only production needs are not required. */
  testRun: boolean;
};

export type TStorageConfig =
  | { kind: "local"; dir: string }
  | {
      kind: "s3";
      bucket: string;
      /** The keys' common start, without a trailing slash ("" for the bucket's root). */
      prefix: string;
      /** The service's address (S3_ENDPOINT); AWS's regional endpoint when unset. */
      endpoint: string | null;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
    };

/** STORAGE_URL and the S3 settings, or the problems that make them unusable. */
const parseStorage = (
  v: (name: string) => string | undefined,
  databasePath: string,
  add: (problem: string) => void,
): TStorageConfig => {
  const fallback: TStorageConfig = { kind: "local", dir: join(dirname(databasePath), "files") };
  // Every variable is read whatever the others say, so the README check sees them all.
  const [raw, endpoint, region, accessKeyId, secretAccessKey] = [
    "STORAGE_URL",
    "S3_ENDPOINT",
    "S3_REGION",
    "S3_ACCESS_KEY_ID",
    "S3_SECRET_ACCESS_KEY",
  ].map(v);
  if (endpoint && !httpUrl.safeParse(endpoint).success)
    add(`S3_ENDPOINT must be an http or https URL (got "${endpoint}")`);
  if (!raw) return fallback;
  const u = URL.parse(raw);
  if (u?.protocol === "file:" && u.pathname.length > 1) return { kind: "local", dir: decodeURIComponent(u.pathname) };
  if (u?.protocol !== "s3:" || !u.hostname) {
    add(`STORAGE_URL must be file:///path or s3://bucket/prefix (got "${raw}")`);
    return fallback;
  }
  const missing = [
    ["S3_ACCESS_KEY_ID", accessKeyId],
    ["S3_SECRET_ACCESS_KEY", secretAccessKey],
  ].flatMap(([name, value]) => (value ? [] : [name]));
  if (missing.length) add(`${missing.join(" and ")}: required with STORAGE_URL=${raw}`);
  return {
    kind: "s3",
    bucket: u.hostname,
    prefix: decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, ""),
    endpoint: endpoint?.replace(/\/$/, "") ?? null,
    region: region ?? "us-east-1",
    accessKeyId: accessKeyId ?? "",
    secretAccessKey: secretAccessKey ?? "",
  };
};

/** The configuration from `env`; every unusable variable is named in one ConfigError. */
export const loadConfig = (env: TEnv = process.env): TConfig => {
  const p = problems();
  const v = (name: string) => given(env, name);
  // Every read goes through `v`, so each variable is read (and trimmed) the same way wherever it is parsed.
  const trimmed = new Proxy({} as TEnv, { get: (_t, name) => (typeof name === "string" ? v(name) : undefined) });
  const attempt = <T>(f: () => T, fallback: T): T => {
    try {
      return f();
    } catch (err) {
      p.add(err instanceof Error ? err.message : String(err));
      return fallback;
    }
  };
  const ms = (name: string, fallback: number) => p.check(name, milliseconds, v(name)) ?? fallback;
  const url = (name: string) => p.check(name, httpUrl, v(name)) ?? null;
  const carrier = (prefix: string, id: keyof typeof CARRIER_BASE_URLS): TCarrierCredentials => {
    // USPS's APIs take no account number.
    const accountNumber = id === "usps" ? null : (v(`${prefix}_ACCOUNT_NUMBER`) ?? null);
    const baseUrl = url(`${prefix}_BASE_URL`) ?? CARRIER_BASE_URLS[id];
    return {
      clientId: v(`${prefix}_CLIENT_ID`) ?? null,
      clientSecret: v(`${prefix}_CLIENT_SECRET`) ?? null,
      accountNumber,
      baseUrl: baseUrl.replace(/\/$/, ""),
    };
  };

  const oidcGiven = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"].filter((n) => v(n));
  if (oidcGiven.length > 0 && oidcGiven.length < 3)
    p.add(
      `${["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"].filter((n) => !v(n)).join(" and ")}: required with ${oidcGiven.join(" and ")} (OpenID Connect needs all three)`,
    );
  const oidcIssuer = url("OIDC_ISSUER");
  const databaseUrl = p.check(
    "DATABASE_URL",
    z.string().regex(/^postgres(ql)?:\/\//, { message: "must be a postgres:// URL" }),
    v("DATABASE_URL"),
  );
  const transport =
    p.check(
      "WHATSAPP_TRANSPORT",
      z.enum(["cloud", "web"], { error: `WHATSAPP_TRANSPORT must be cloud or web (got "${v("WHATSAPP_TRANSPORT")}")` }),
      v("WHATSAPP_TRANSPORT"),
    ) ?? "cloud";
  const webhookUrl = url("TELEGRAM_WEBHOOK_URL");
  // Checked only with a webhook URL (long polling needs no secret), but read either way.
  const webhookSecretGiven = v("TELEGRAM_WEBHOOK_SECRET");
  const pushSandbox = v("WEB_PUSH_SANDBOX_URL");
  if (pushSandbox && !originOf(pushSandbox))
    p.add(`WEB_PUSH_SANDBOX_URL must be an origin such as https://127.0.0.1:8443 (got "${pushSandbox}")`);
  const secretKey = v("MYTESS_SECRET_KEY") ?? null;
  if (secretKey) attempt(() => parseSecretKey(secretKey, "MYTESS_SECRET_KEY"), null);
  const language = v("MYTESS_LANG");
  if (language && !(LANGUAGES as readonly string[]).includes(language.slice(0, 2).toLowerCase()))
    p.add(`MYTESS_LANG must be en, am or om (got "${language}")`);
  const cliLanguage = (language ?? v("LC_ALL") ?? v("LC_MESSAGES") ?? v("LANG") ?? "").slice(0, 2).toLowerCase();

  const databasePath = v("DATABASE_PATH") ?? join(ROOT, "data", "mytess.db");
  const storage = parseStorage(v, databasePath, (problem) => p.add(problem));
  const config: TConfig = {
    port: p.check("PORT", wholeNumber(0, 65_535), v("PORT")) ?? 3000,
    host: v("HOST") ?? "0.0.0.0",
    databasePath,
    storage,
    databaseUrl: databaseUrl ?? null,
    webDist: v("WEB_DIST") ?? join(ROOT, "dist", "web"),
    trustProxy: p.check("TRUST_PROXY", flag, v("TRUST_PROXY")) ?? false,
    demo: p.check("MYTESS_DEMO", flag, v("MYTESS_DEMO")) ?? false,
    oidc:
      oidcGiven.length === 3 && oidcIssuer
        ? { issuer: oidcIssuer, clientId: v("OIDC_CLIENT_ID")!, clientSecret: v("OIDC_CLIENT_SECRET")! }
        : null,
    publicUrl: url("PUBLIC_URL"),
    mapOrigins: attempt(() => parseMapOrigins(v("MAP_ORIGINS")), []),
    role:
      p.check(
        "MYTESS_ROLE",
        z.enum(ROLES, { error: `MYTESS_ROLE must be one of ${ROLES.join(", ")} (got "${v("MYTESS_ROLE")}")` }),
        v("MYTESS_ROLE"),
      ) ?? "all",
    webConcurrency: p.check("WEB_CONCURRENCY", wholeNumber(1, 1024), v("WEB_CONCURRENCY")) ?? availableParallelism(),
    serverChild: v("MYTESS_SERVER_CHILD") === "1",
    logLevel:
      p.check(
        "LOG_LEVEL",
        z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${v("LOG_LEVEL")}")` }),
        v("LOG_LEVEL"),
      ) ?? "info",
    secretKey,
    carriers: {
      timeoutMs: ms("CARRIER_TIMEOUT_MS", 8000),
      uspsHourlyQuota:
        p.check("USPS_HOURLY_QUOTA", wholeNumber(0), v("USPS_HOURLY_QUOTA")) ?? USPS_DEFAULT_HOURLY_QUOTA,
      fedex: carrier("FEDEX", "fedex"),
      ups: carrier("UPS", "ups"),
      usps: carrier("USPS", "usps"),
    },
    boards: {
      timeoutMs: ms("BOARD_TIMEOUT_MS", 8000),
      deadlineMs: ms("BOARD_DEADLINE_MS", 4000),
      sandboxOrigins: attempt(() => parseSandboxOrigins(trimmed), []),
      sandboxUrls: p.check("BOARD_SANDBOX_URLS", urlMap, v("BOARD_SANDBOX_URLS")) ?? null,
      loadboard123App: attempt(() => parseLoadboard123App(trimmed), null),
      pageCacheBytes:
        (p.check("BOARD_PAGE_CACHE_MB", wholeNumber(0), v("BOARD_PAGE_CACHE_MB")) ?? BOARD_PAGE_CACHE_MB) * 1024 * 1024,
    },
    stores: {
      timeoutMs: ms("STORE_TIMEOUT_MS", 10_000),
      sandboxUrls: p.check("STORE_SANDBOX_URLS", urlMap, v("STORE_SANDBOX_URLS")) ?? null,
    },
    telegram: {
      token: v("TELEGRAM_BOT_TOKEN") ?? null,
      apiRoot: (url("TELEGRAM_API_ROOT") ?? TELEGRAM_API_ROOT).replace(/\/+$/, ""),
      username: v("TELEGRAM_BOT_USERNAME")?.replace(/^@/, "") ?? null,
      webhookUrl,
      webhookSecret: webhookUrl
        ? attempt(() => parseTelegramWebhookSecret(trimmed), null)
        : (webhookSecretGiven ?? null),
    },
    whatsapp: {
      transport,
      accessToken: v("WHATSAPP_ACCESS_TOKEN") ?? null,
      phoneNumberId: v("WHATSAPP_PHONE_NUMBER_ID") ?? null,
      apiRoot: (url("WHATSAPP_API_ROOT") ?? WHATSAPP_API_ROOT).replace(/\/+$/, ""),
      graphVersion: v("WHATSAPP_GRAPH_VERSION") ?? WHATSAPP_GRAPH_VERSION,
      appSecret: v("WHATSAPP_APP_SECRET") ?? null,
      verifyToken: v("WHATSAPP_VERIFY_TOKEN") ?? null,
      web: {
        secret: attempt(() => parseWhatsAppWebSecret(trimmed), null),
        bridgeUrl: (url("WHATSAPP_WEB_BRIDGE_URL") ?? WHATSAPP_WEB_BRIDGE_URL).replace(/\/+$/, ""),
        sessionDir: v("WHATSAPP_WEB_SESSION_DIR") ?? null,
        inboundUrl: url("WHATSAPP_WEB_INBOUND_URL"),
        settleMs: p.check("WHATSAPP_WEB_SETTLE_MS", wholeNumber(0), v("WHATSAPP_WEB_SETTLE_MS")) ?? null,
      },
      chromiumPath: v("CHROMIUM_PATH") ?? null,
    },
    webPush: {
      vapidKeys: attempt(() => parseVapidKeys(trimmed), null),
      subject: attempt(() => parseVapidSubject(trimmed), "mailto:postmaster@localhost"),
      caFile: v("WEB_PUSH_CA_FILE") ?? null,
      hosts: attempt(() => parseWebPushHosts(trimmed), DEFAULT_WEB_PUSH_HOSTS),
      sandboxOrigin: pushSandbox ? originOf(pushSandbox) : null,
    },
    notifyTimeoutMs: ms("NOTIFY_TIMEOUT_MS", 10_000),
    mail: {
      smtpUrl:
        p.check(
          "SMTP_URL",
          z.string().refine((u) => /^smtps?:$/.test(URL.parse(u)?.protocol ?? ""), {
            message: "must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587",
          }),
          v("SMTP_URL"),
        ) ?? null,
      from:
        p.check(
          "MAIL_FROM",
          z.string().regex(/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, {
            message: 'must be an address such as "MyTess <no-reply@example.com>"',
          }),
          v("MAIL_FROM"),
        ) ?? "MyTess <no-reply@localhost>",
      sandboxDir: v("MAIL_SANDBOX_DIR") ?? null,
    },
    sms: {
      twilio: {
        accountSid: v("TWILIO_ACCOUNT_SID") ?? null,
        authToken: v("TWILIO_AUTH_TOKEN") ?? null,
        from:
          p.check(
            "TWILIO_FROM",
            z.string().regex(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/, {
              message: "must be a Twilio number in E.164 (+15005550006) or a Messaging Service SID (MG…)",
            }),
            v("TWILIO_FROM"),
          ) ?? null,
        apiBase: (url("TWILIO_API_BASE") ?? TWILIO_API_BASE).replace(/\/+$/, ""),
      },
      afromessage: {
        token: v("AFROMESSAGE_TOKEN") ?? null,
        identifierId: v("AFROMESSAGE_IDENTIFIER_ID") ?? null,
        sender: v("AFROMESSAGE_SENDER") ?? null,
        apiBase: (url("AFROMESSAGE_API_BASE") ?? AFROMESSAGE_API_BASE).replace(/\/+$/, ""),
      },
      dailyLimit: p.check("SMS_DAILY_LIMIT", wholeNumber(0), v("SMS_DAILY_LIMIT")) ?? 500,
      timeoutMs: ms("SMS_TIMEOUT_MS", 10_000),
      sandboxDir: v("SMS_SANDBOX_DIR") ?? null,
    },
    payments: {
      timeoutMs: ms("PAYMENT_TIMEOUT_MS", 10_000),
      platformFeePercent:
        p.check(
          "PLATFORM_FEE_PERCENT",
          z.coerce
            .number({ error: "must be a number from 0 to 50" })
            .min(0, { message: "must be a number from 0 to 50" })
            .max(50, { message: "must be a number from 0 to 50" }),
          v("PLATFORM_FEE_PERCENT"),
        ) ?? 3,
      stripe: {
        secretKey: v("STRIPE_SECRET_KEY") ?? null,
        webhookSecret: v("STRIPE_WEBHOOK_SECRET") ?? null,
        prices: {
          ...(v("STRIPE_PRICE_USD") ? { USD: v("STRIPE_PRICE_USD") } : {}),
          ...(v("STRIPE_PRICE_EUR") ? { EUR: v("STRIPE_PRICE_EUR") } : {}),
        },
        apiBase: url("STRIPE_API_BASE") ?? STRIPE_API_BASE,
      },
      chapa: {
        secretKey: v("CHAPA_SECRET_KEY") ?? null,
        webhookSecret: v("CHAPA_WEBHOOK_SECRET") ?? null,
        apiBase: url("CHAPA_API_BASE") ?? CHAPA_API_BASE,
      },
      premiumPriceEtb: p.check("PREMIUM_PRICE_ETB", wholeNumber(1, 10_000_000), v("PREMIUM_PRICE_ETB")) ?? null,
    },
    webhooks: {
      sandboxUrl: p.check("WEBHOOK_SANDBOX_URL", loopbackOrigin, v("WEBHOOK_SANDBOX_URL"))?.replace(/\/$/, "") ?? null,
      sandboxDir: v("WEBHOOK_SANDBOX_DIR") ?? null,
    },
    fx: {
      sourceUrl: (url("FX_SOURCE_URL") ?? FX_SOURCE_URL).replace(/\/+$/, ""),
      timeoutMs: ms("FX_TIMEOUT_MS", 10_000),
    },
    cli: {
      language: (LANGUAGES as readonly string[]).includes(cliLanguage)
        ? (cliLanguage as (typeof LANGUAGES)[number])
        : "en",
      calendar:
        p.check(
          "MYTESS_CALENDAR",
          z.enum(["gregorian", "ethiopic"], {
            error: `MYTESS_CALENDAR must be gregorian or ethiopic (got "${v("MYTESS_CALENDAR")}")`,
          }),
          v("MYTESS_CALENDAR"),
        ) ?? "gregorian",
      ethiopianTime: p.check("MYTESS_ETHIOPIAN_TIME", flag, v("MYTESS_ETHIOPIAN_TIME")) ?? false,
      operator: v("USER") ?? null,
    },
    demoPorts: {
      telegram: p.check("DEMO_TELEGRAM_PORT", wholeNumber(1, 65_535), v("DEMO_TELEGRAM_PORT")) ?? null,
      whatsapp: p.check("DEMO_WHATSAPP_PORT", wholeNumber(1, 65_535), v("DEMO_WHATSAPP_PORT")) ?? null,
    },
    testRun: v("NODE_ENV") === "test",
  };
  // SMS credentials come together: one without the others would send nothing and say nothing.
  const twilioGiven = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"].filter((n) => v(n));
  if (twilioGiven.length > 0 && twilioGiven.length < 3)
    p.add(
      `${["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"].filter((n) => !v(n)).join(", ")}: Twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM together`,
    );
  if (Boolean(v("AFROMESSAGE_TOKEN")) !== Boolean(v("AFROMESSAGE_IDENTIFIER_ID")))
    p.add(
      `${v("AFROMESSAGE_TOKEN") ? "AFROMESSAGE_IDENTIFIER_ID" : "AFROMESSAGE_TOKEN"}: AfroMessage needs AFROMESSAGE_TOKEN and AFROMESSAGE_IDENTIFIER_ID together`,
    );
  if (p.list.length) throw new ConfigError(p.list.join("\n"));
  return config;
};

/**
 * `config` with the integrations' settings of `other` (carriers, boards, stores, Telegram, WhatsApp, web push,
 * payments, the secret key), keeping the server's own (port, database, web app, sign-in, maps).
 */
export const withIntegrationsOf = (config: TConfig, other: TConfig): TConfig => ({
  ...config,
  secretKey: other.secretKey,
  carriers: other.carriers,
  boards: other.boards,
  stores: other.stores,
  telegram: other.telegram,
  whatsapp: other.whatsapp,
  webPush: other.webPush,
  notifyTimeoutMs: other.notifyTimeoutMs,
  mail: other.mail,
  sms: other.sms,
  payments: other.payments,
  fx: other.fx,
});

/**
 * VAPID_SUBJECT: the contact push services see in every push (RFC 8292), a `mailto:` address or an `https:` URL. Apple's
 * push service refuses a placeholder such as mailto:postmaster@localhost, so iPhones would get no notifications.
 * Returns what is wrong with a value, or null.
 */
export const vapidSubjectProblem = (value: string | undefined): string | null => {
  const v = value?.trim() ?? "";
  if (!v)
    return "VAPID_SUBJECT is not set: set it to a contact push services can reach, such as mailto:ops@example.com or https://example.com (Apple refuses pushes without a real one)";
  const url = URL.parse(v);
  const mailto = url?.protocol === "mailto:" ? /^[^\s@]+@([^\s@]+)$/.exec(decodeURIComponent(url.pathname)) : null;
  const host = (url?.protocol === "https:" ? url.hostname : mailto?.[1])?.toLowerCase();
  if (!url || (url.protocol !== "mailto:" && url.protocol !== "https:") || !host)
    return `VAPID_SUBJECT: "${v}" is not a mailto: address or an https: URL`;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local"))
    return `VAPID_SUBJECT: "${v}" names a local host, which Apple's push service refuses`;
  if (!host.includes(".")) return `VAPID_SUBJECT: "${v}" is not a mailto: address or an https: URL`;
  return null;
};

/**
 * What the start refuses outside demo mode and test runs: settings production cannot do without. Throws an Error whose
 * message names the variable.
 */
export const checkProductionSettings = (env: Record<string, string | undefined>, config: Pick<TConfig, "demo">) => {
  if (config.demo || env.NODE_ENV === "test") return;
  const problem = vapidSubjectProblem(env.VAPID_SUBJECT);
  if (problem) throw new ConfigError(problem);
};
