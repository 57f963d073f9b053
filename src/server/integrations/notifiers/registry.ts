import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Api } from "grammy";
import { loadConfig, parseWebPushHosts, type TConfig } from "../../config";
import { guardedFetcher } from "../http/guard";
import { createTelegramNotifier } from "./telegram";
import type { TNotifier, TNotifyChannel } from "./types";
import { vapidKeysFrom } from "./vapid-keys";
import { createWebPushNotifier } from "./web-push";
import { createWhatsAppCloudNotifier } from "./whatsapp-cloud";
import { createWhatsAppWebNotifier, type TWhatsAppWebSettings, whatsappWebSecretFrom } from "./whatsapp-web";

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

/** The VAPID key file lives beside the database, like the other generated keys; none for an in-memory database. */
export const vapidKeyFileFor = (databasePath: string) =>
  databasePath === ":memory:" || databasePath === "" ? null : join(dirname(databasePath), "vapid-keys.json");

/** WEB_PUSH_HOSTS as the configuration reads it (the browsers' push services unless it replaces them). */
export const webPushHostsFromEnv = (env: Record<string, string | undefined>): readonly string[] =>
  parseWebPushHosts(env);

/** What the notifiers are built from: the configuration's Telegram, WhatsApp and web push sections. */
export type TNotifierConfig = Pick<TConfig, "telegram" | "whatsapp" | "webPush" | "notifyTimeoutMs">;

/**
 * The notifiers configured. Telegram and WhatsApp need credentials; web push always works (its keys are made
 * on first start). Emulators and loopback hosts are "Sandbox", and so is push while it trusts an extra CA
 * (WEB_PUSH_CA_FILE), which only a test or demo setup does. Every base URL here is the operator's (TELEGRAM_API_ROOT,
 * WHATSAPP_API_ROOT, the bridge, WEB_PUSH_SANDBOX_URL), so the outgoing-call guard trusts exactly those origins.
 */
export const notifiersFrom = (
  c: TNotifierConfig,
  opts: { vapidKeyFile: string | null; whatsappWebSecretFile?: string | null },
): TNotifierRegistry => {
  const timeoutMs = c.notifyTimeoutMs;
  const telegramRoot = c.telegram.apiRoot;
  const token = c.telegram.token;
  const telegram = token
    ? createTelegramNotifier({
        token,
        apiRoot: telegramRoot,
        timeoutSeconds: Math.ceil(timeoutMs / 1000),
        sandbox: isLoopback(telegramRoot),
      })
    : null;
  const wa = c.whatsapp;
  // WhatsApp Web: the bridge the worker runs (workers/whatsapp-web/), asked over signed HTTP.
  const whatsappWeb: TWhatsAppWebSettings | null =
    wa.transport === "web"
      ? {
          bridgeUrl: wa.web.bridgeUrl,
          secret: whatsappWebSecretFrom(wa.web.secret, opts.whatsappWebSecretFile ?? null),
        }
      : null;
  const whatsapp = whatsappWeb
    ? createWhatsAppWebNotifier(whatsappWeb)
    : wa.accessToken && wa.phoneNumberId
      ? createWhatsAppCloudNotifier({
          accessToken: wa.accessToken,
          phoneNumberId: wa.phoneNumberId,
          apiRoot: wa.apiRoot,
          version: wa.graphVersion,
          timeoutMs,
          sandbox: isLoopback(wa.apiRoot),
        })
      : null;
  const vapid = vapidKeysFrom(c.webPush.vapidKeys, opts.vapidKeyFile);
  const ca = c.webPush.caFile ? readFileSync(c.webPush.caFile, "utf8") : undefined;
  const webPush = createWebPushNotifier({
    vapid: { ...vapid, subject: c.webPush.subject },
    timeoutMs,
    ca,
    sandbox: ca !== undefined,
    hosts: c.webPush.hosts,
    sandboxOrigin: c.webPush.sandboxOrigin,
  });
  let username: Promise<string | null> | null = c.telegram.username ? Promise.resolve(c.telegram.username) : null;
  const telegramBotUsername = () => {
    if (!token) return Promise.resolve(null);
    if (!username) {
      const api = new Api(token, {
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
    whatsappWebhook: wa.verifyToken && wa.appSecret ? { verifyToken: wa.verifyToken, appSecret: wa.appSecret } : null,
    whatsappWeb,
  };
};

/** The notifiers an environment configures, read through loadConfig (tests give their own environment). */
export const notifiersFromEnv = (
  env: Record<string, string | undefined> = process.env,
  opts: { vapidKeyFile: string | null; whatsappWebSecretFile?: string | null },
): TNotifierRegistry => notifiersFrom(loadConfig(env), opts);
