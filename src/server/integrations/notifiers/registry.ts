import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Api } from "grammy";
import { guardedFetcher, originOf } from "../http/guard";
import { createTelegramNotifier, telegramApiRoot } from "./telegram";
import type { TNotifier, TNotifyChannel } from "./types";
import { loadVapidKeys } from "./vapid-keys";
import { createWebPushNotifier, WEB_PUSH_HOSTS } from "./web-push";
import { createWhatsAppCloudNotifier, WHATSAPP_API_ROOT, WHATSAPP_GRAPH_VERSION } from "./whatsapp-cloud";
import {
  createWhatsAppWebNotifier,
  loadWhatsAppWebSecret,
  type TWhatsAppWebSettings,
  WHATSAPP_WEB_BRIDGE_URL,
} from "./whatsapp-web";

export type TNotifierState = "active" | "sandbox" | "not_configured";
export type TNotifierRegistry = {
  get: <C extends TNotifyChannel>(channel: C) => TNotifier<C> | null;
  states: () => { channel: TNotifyChannel; name: string; state: TNotifierState }[];
  /** The applicationServerKey browsers subscribe with (GET /api/push/vapid-key). */
  vapidPublicKey: string | null;
  /** Whether a push subscription's endpoint is at a push service we send to (WEB_PUSH_HOSTS, the Sandbox). */
  acceptsPushEndpoint: (endpoint: string) => boolean;
  /**
   * The bot's @username for t.me deep links: TELEGRAM_BOT_USERNAME, else asked of Telegram (getMe) once; null when
   * Telegram is not configured or cannot be reached (asked again next time).
   */
  telegramBotUsername: () => Promise<string | null>;
  /** What the WhatsApp webhook route checks; null when the webhook is not configured. */
  whatsappWebhook: { verifyToken: string; appSecret: string } | null;
  /** WHATSAPP_TRANSPORT=web: where the WhatsApp Web bridge listens and the secret both sides sign with; else null. */
  whatsappWeb: TWhatsAppWebSettings | null;
};

const NAMES: Record<TNotifyChannel, string> = { telegram: "Telegram", whatsapp: "WhatsApp", web_push: "Web Push" };

const isLoopback = (url: string) => {
  const host = new URL(url).hostname;
  return host === "localhost" || host.startsWith("127.") || host === "[::1]";
};
const root = (url: string) => url.replace(/\/+$/, "");

/** The VAPID key file lives beside the database, like the other generated keys; none for an in-memory database. */
export const vapidKeyFileFor = (databasePath: string) =>
  databasePath === ":memory:" || databasePath === "" ? null : join(dirname(databasePath), "vapid-keys.json");

/**
 * WEB_PUSH_HOSTS: the push services' hosts subscriptions may be at, comma-separated ("fcm.googleapis.com,
 * *.push.apple.com"), replacing the browsers' list; a value that is not a host name stops the start, naming it.
 */
export const webPushHostsFromEnv = (env: Record<string, string | undefined>): readonly string[] => {
  if (!env.WEB_PUSH_HOSTS?.trim()) return WEB_PUSH_HOSTS;
  const hosts = env.WEB_PUSH_HOSTS.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of hosts)
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(h))
      throw new Error(
        `WEB_PUSH_HOSTS must list host names such as fcm.googleapis.com or *.push.apple.com (got "${h}")`,
      );
  return hosts;
};

/**
 * Notifiers from the environment. Telegram and WhatsApp need credentials; web push always works (its keys are made
 * on first start). Emulators and loopback hosts are "Sandbox", and so is push while it trusts an extra CA
 * (WEB_PUSH_CA_FILE), which only a test or demo setup does. Every base URL here is the operator's (TELEGRAM_API_ROOT,
 * WHATSAPP_API_ROOT, the bridge, WEB_PUSH_SANDBOX_URL), so the outgoing-call guard trusts exactly those origins.
 */
export const notifiersFromEnv = (
  env: Record<string, string | undefined> = process.env,
  opts: { vapidKeyFile: string | null; whatsappWebSecretFile?: string | null },
): TNotifierRegistry => {
  const timeoutMs = Number(env.NOTIFY_TIMEOUT_MS ?? 10_000);
  const telegramRoot = telegramApiRoot(env);
  const telegram = env.TELEGRAM_BOT_TOKEN
    ? createTelegramNotifier({
        token: env.TELEGRAM_BOT_TOKEN,
        apiRoot: telegramRoot,
        timeoutSeconds: Math.ceil(timeoutMs / 1000),
        sandbox: isLoopback(telegramRoot),
      })
    : null;
  const transport = env.WHATSAPP_TRANSPORT || "cloud";
  if (transport !== "cloud" && transport !== "web")
    throw new Error(`WHATSAPP_TRANSPORT must be cloud or web (got "${transport}")`);
  // WhatsApp Web: the bridge the worker runs (workers/whatsapp-web/), asked over signed HTTP.
  const whatsappWeb: TWhatsAppWebSettings | null =
    transport === "web"
      ? {
          bridgeUrl: root(env.WHATSAPP_WEB_BRIDGE_URL || WHATSAPP_WEB_BRIDGE_URL),
          secret: loadWhatsAppWebSecret(env, opts.whatsappWebSecretFile ?? null),
        }
      : null;
  const whatsappRoot = root(env.WHATSAPP_API_ROOT ?? WHATSAPP_API_ROOT);
  const whatsapp = whatsappWeb
    ? createWhatsAppWebNotifier(whatsappWeb)
    : env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
      ? createWhatsAppCloudNotifier({
          accessToken: env.WHATSAPP_ACCESS_TOKEN,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
          apiRoot: whatsappRoot,
          version: env.WHATSAPP_GRAPH_VERSION ?? WHATSAPP_GRAPH_VERSION,
          timeoutMs,
          sandbox: isLoopback(whatsappRoot),
        })
      : null;
  const vapid = loadVapidKeys(env, opts.vapidKeyFile);
  const ca = env.WEB_PUSH_CA_FILE ? readFileSync(env.WEB_PUSH_CA_FILE, "utf8") : undefined;
  const pushSandbox = env.WEB_PUSH_SANDBOX_URL?.trim() ? originOf(env.WEB_PUSH_SANDBOX_URL.trim()) : null;
  if (env.WEB_PUSH_SANDBOX_URL?.trim() && !pushSandbox)
    throw new Error(
      `WEB_PUSH_SANDBOX_URL must be an origin such as https://127.0.0.1:8443 (got "${env.WEB_PUSH_SANDBOX_URL}")`,
    );
  const webPush = createWebPushNotifier({
    vapid: { ...vapid, subject: vapidSubject(env) },
    timeoutMs,
    ca,
    sandbox: ca !== undefined,
    hosts: webPushHostsFromEnv(env),
    sandboxOrigin: pushSandbox,
  });
  let username: Promise<string | null> | null = env.TELEGRAM_BOT_USERNAME
    ? Promise.resolve(env.TELEGRAM_BOT_USERNAME.replace(/^@/, ""))
    : null;
  const telegramBotUsername = () => {
    if (!env.TELEGRAM_BOT_TOKEN) return Promise.resolve(null);
    if (!username) {
      const api = new Api(env.TELEGRAM_BOT_TOKEN, {
        apiRoot: telegramRoot,
        timeoutSeconds: Math.ceil(timeoutMs / 1000),
        fetch: guardedFetcher({ trusted: [telegramRoot] }) as never,
      });
      username = api.getMe().then(
        (me) => me.username,
        () => {
          username = null;
          return null;
        },
      );
    }
    return username;
  };
  const adapters = { telegram, whatsapp, web_push: webPush } as { [C in TNotifyChannel]: TNotifier<C> | null };
  return {
    get: (channel) => adapters[channel],
    states: () =>
      (Object.keys(adapters) as TNotifyChannel[]).map((channel) => {
        const a = adapters[channel];
        return { channel, name: NAMES[channel], state: !a ? "not_configured" : a.sandbox ? "sandbox" : "active" };
      }),
    vapidPublicKey: webPush.publicKey,
    acceptsPushEndpoint: webPush.accepts,
    telegramBotUsername,
    whatsappWebhook:
      env.WHATSAPP_VERIFY_TOKEN && env.WHATSAPP_APP_SECRET
        ? { verifyToken: env.WHATSAPP_VERIFY_TOKEN, appSecret: env.WHATSAPP_APP_SECRET }
        : null,
    whatsappWeb,
  };
};

/**
 * Push services want a contact in the VAPID token (mailto: or https:). Apple refuses localhost, so PUBLIC_URL serves
 * only when it is a public https origin; otherwise a mailto: placeholder that operators should replace.
 */
const vapidSubject = (env: Record<string, string | undefined>) => {
  if (env.VAPID_SUBJECT) {
    if (!/^(mailto:|https:)/.test(env.VAPID_SUBJECT)) throw new Error("VAPID_SUBJECT must be a mailto: or https: URL");
    return env.VAPID_SUBJECT;
  }
  const pub = env.PUBLIC_URL;
  if (pub?.startsWith("https://") && !isLoopback(pub)) return new URL(pub).origin;
  return "mailto:postmaster@localhost";
};
