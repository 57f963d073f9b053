// Messaging preferences (SPEC §3): where a user's chat notifications go (WhatsApp, Telegram), which types, in which
// language; the Telegram deep link that links a chat without copying its id; the test messages of the /messaging page.
import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, gte, lt, ne, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  type MessagingPreferences,
  messagingPreferences,
  notifications,
  telegramLinkTokens,
} from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import {
  DEFAULT_MESSAGING_TYPES,
  type TMessagingPreferencesInput,
  type TMessagingType,
} from "../../../shared/schemas/messaging";
import { AppError } from "../../errors";
import { i18n, isLanguage } from "../../i18n";
import type { TNotifierRegistry } from "../../integrations/notify/registry";
import type { TSendResult } from "../../integrations/notify/types";

export const LINK_TOKEN_TTL_MS = 60 * 60_000;
/** Test messages a user may send per channel and hour: enough to fix a typo, too few to spam a stranger. */
export const TEST_SENDS_PER_HOUR = 5;

export type TMessagingPrefs = {
  whatsappEnabled: boolean;
  whatsappNumber: string | null;
  whatsappLastInboundAt: number | null;
  telegramEnabled: boolean;
  telegramChatId: string | null;
  telegramBlockedAt: number | null;
  notificationTypes: Record<TMessagingType, boolean>;
  language: TLanguage;
};

const fromRow = (r: MessagingPreferences | undefined): TMessagingPrefs => ({
  whatsappEnabled: r?.whatsappEnabled ?? false,
  whatsappNumber: r?.whatsappNumber ?? null,
  whatsappLastInboundAt: r?.whatsappLastInboundAt ?? null,
  telegramEnabled: r?.telegramEnabled ?? false,
  telegramChatId: r?.telegramChatId ?? null,
  telegramBlockedAt: r?.telegramBlockedAt ?? null,
  notificationTypes: r
    ? {
        loadAssigned: r.loadAssigned,
        loadUpdates: r.loadUpdates,
        paymentReceived: r.paymentReceived,
        systemAlerts: r.systemAlerts,
      }
    : { ...DEFAULT_MESSAGING_TYPES },
  // SPEC §9: messaging's default language is English.
  language: r && isLanguage(r.language) ? r.language : "en",
});

/** The user's messaging preferences; the defaults (both channels off) when never saved. */
export const messagingPreferencesOf = async (db: Pick<TDb, "select">, userId: number) => {
  const [r] = await db.select().from(messagingPreferences).where(eq(messagingPreferences.userId, userId));
  return fromRow(r);
};

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A one-time token for t.me/<bot>?start=<token> (Telegram allows 64 characters of A-Z, a-z, 0-9, _ and -). Only its
 * hash is stored; the user's expired tokens are cleared on the way.
 */
export const issueTelegramLinkToken = async (db: TDb, userId: number, now = Date.now()) => {
  const token = randomBytes(32).toString("base64url");
  await db
    .delete(telegramLinkTokens)
    .where(and(eq(telegramLinkTokens.userId, userId), lt(telegramLinkTokens.expiresAt, now)));
  await db
    .insert(telegramLinkTokens)
    .values({ tokenHash: hashToken(token), userId, expiresAt: now + LINK_TOKEN_TTL_MS, createdAt: now });
  return token;
};

export const channelState = (notifiers: TNotifierRegistry, channel: "telegram" | "whatsapp") =>
  notifiers.states().find((s) => s.channel === channel)?.state ?? "not_configured";

/** GET /api/messaging/preferences: SPEC §3's object, the deep link, whether the bot was blocked, channel states. */
export const messagingView = async (db: TDb, notifiers: TNotifierRegistry, userId: number, now = Date.now()) => {
  const p = await messagingPreferencesOf(db, userId);
  const username = await notifiers.telegramBotUsername();
  const telegramLinkUrl = username
    ? `https://t.me/${username}?start=${await issueTelegramLinkToken(db, userId, now)}`
    : null;
  return {
    whatsappEnabled: p.whatsappEnabled,
    whatsappNumber: p.whatsappNumber,
    telegramEnabled: p.telegramEnabled,
    telegramChatId: p.telegramChatId,
    notificationTypes: p.notificationTypes,
    language: p.language,
    telegramLinkUrl,
    /** Telegram said the user blocked the bot; Telegram was turned off until the chat is linked again. */
    telegramBlocked: p.telegramBlockedAt !== null,
    channels: { telegram: channelState(notifiers, "telegram"), whatsapp: channelState(notifiers, "whatsapp") },
  };
};

const TELEGRAM_TAKEN = /*i18n*/ {
  id: "error.messaging.telegramTaken",
  message: "This Telegram chat is linked to another account",
};
const WHATSAPP_TAKEN = /*i18n*/ {
  id: "error.messaging.whatsappTaken",
  message: "This WhatsApp number is linked to another account",
};

/** PUT /api/messaging/preferences. A chat id or number another account uses is refused, naming the field. */
export const saveMessagingPreferences = (
  db: TDb,
  notifiers: TNotifierRegistry,
  userId: number,
  input: TMessagingPreferencesInput,
  now = Date.now(),
) =>
  db
    .transaction(async (tx) => {
      const [current] = await tx.select().from(messagingPreferences).where(eq(messagingPreferences.userId, userId));
      const chat = input.telegramChatId ?? null;
      const phone = input.whatsappNumber ?? null;
      if (chat || phone) {
        const others = await tx
          .select({
            telegramChatId: messagingPreferences.telegramChatId,
            whatsappNumber: messagingPreferences.whatsappNumber,
          })
          .from(messagingPreferences)
          .where(
            and(
              ne(messagingPreferences.userId, userId),
              or(
                chat ? eq(messagingPreferences.telegramChatId, chat) : undefined,
                phone ? eq(messagingPreferences.whatsappNumber, phone) : undefined,
              ),
            ),
          );
        if (chat && others.some((o) => o.telegramChatId === chat))
          throw new AppError("CONFLICT", TELEGRAM_TAKEN, {
            issues: [{ path: "telegramChatId", message: TELEGRAM_TAKEN }],
          });
        if (phone && others.some((o) => o.whatsappNumber === phone))
          throw new AppError("CONFLICT", WHATSAPP_TAKEN, {
            issues: [{ path: "whatsappNumber", message: WHATSAPP_TAKEN }],
          });
      }
      const values = {
        whatsappEnabled: input.whatsappEnabled,
        whatsappNumber: phone,
        // A new number has not written to us yet: WhatsApp's 24-hour window belongs to the number.
        whatsappLastInboundAt: current && current.whatsappNumber === phone ? current.whatsappLastInboundAt : null,
        telegramEnabled: input.telegramEnabled && chat !== null,
        telegramChatId: chat,
        // Turning Telegram back on (or another chat) is the user saying the bot may write again.
        telegramBlockedAt:
          current && current.telegramChatId === chat && !input.telegramEnabled ? current.telegramBlockedAt : null,
        ...input.notificationTypes,
        language: input.language,
        updatedAt: now,
      };
      await tx
        .insert(messagingPreferences)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: messagingPreferences.userId, set: values });
    })
    .then(() => messagingView(db, notifiers, userId, now));

/** Telegram answered 403 (bot blocked): Telegram is off for the user until they link or turn it on again. */
export const markTelegramBlocked = (db: Pick<TDb, "update">, userId: number, now = Date.now()) =>
  db
    .update(messagingPreferences)
    .set({ telegramEnabled: false, telegramBlockedAt: now, updatedAt: now })
    .where(eq(messagingPreferences.userId, userId));

/** SPEC §9: "Test messages are fixed text stating it is a test from the product." */
export const testMessageText = (locale: TLanguage) => {
  i18n.activate(locale);
  return {
    title: i18n._({ id: "messaging.test.title", message: "MyTess test message" }),
    body: i18n._({
      id: "messaging.test.body",
      message: "This is a test message from MyTess. Your notifications will arrive here.",
    }),
  };
};

const NOT_CONFIGURED = {
  telegram: /*i18n*/ { id: "error.messaging.telegramOff", message: "Telegram is not configured on this server" },
  whatsapp: /*i18n*/ { id: "error.messaging.whatsappOff", message: "WhatsApp is not configured on this server" },
};

/**
 * POST /api/messaging/{telegram,whatsapp}/send with type "test": the fixed test text, in the user's messaging
 * language, to the address given (the page tests what is typed before saving it). At most TEST_SENDS_PER_HOUR per
 * channel and hour; each try is kept in the user's notification history.
 */
export const sendTestMessage = async (
  db: TDb,
  notifiers: TNotifierRegistry,
  userId: number,
  to: { channel: "telegram"; chatId: string } | { channel: "whatsapp"; phone: string },
  now = Date.now(),
) => {
  const prefs = await messagingPreferencesOf(db, userId);
  const [{ n }] = await db
    .select({ n: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.channel, to.channel),
        eq(notifications.type, "test"),
        gte(notifications.createdAt, now - 3600_000),
      ),
    );
  if (Number(n) >= TEST_SENDS_PER_HOUR)
    throw new AppError(
      "TOO_MANY_REQUESTS",
      /*i18n*/ {
        id: "error.messaging.testLimit",
        message: "You have sent {limit} test messages in the last hour; try again later",
        values: { limit: TEST_SENDS_PER_HOUR },
      },
      { retryAfterSeconds: 3600 },
    );
  const text = testMessageText(prefs.language);
  let result: TSendResult;
  if (to.channel === "telegram") {
    const telegram = notifiers.get("telegram");
    if (!telegram) throw new AppError("SERVICE_UNAVAILABLE", NOT_CONFIGURED.telegram);
    result = await telegram.send({ chatId: to.chatId }, text);
  } else {
    const whatsapp = notifiers.get("whatsapp");
    if (!whatsapp) throw new AppError("SERVICE_UNAVAILABLE", NOT_CONFIGURED.whatsapp);
    const lastInboundAt = prefs.whatsappNumber === to.phone ? prefs.whatsappLastInboundAt : null;
    result = await whatsapp.send(
      { phone: to.phone, lastInboundAt },
      { ...text, whatsappTemplate: template(prefs.language, text) },
    );
  }
  await db.insert(notifications).values({
    userId,
    type: "test",
    ...text,
    url: null,
    channel: to.channel,
    status: result.status === "delivered" ? "sent" : "failed",
    createdAt: now,
  });
  if (result.status === "delivered") return { sent: true, channel: to.channel };
  if (to.channel === "telegram")
    throw result.status === "gone" || result.status === "failed"
      ? new AppError(
          "BAD_REQUEST",
          /*i18n*/ {
            id: "error.messaging.telegramUnreachable",
            message: "Telegram cannot deliver to this chat. Open the bot in Telegram, press Start, then try again.",
          },
          {
            issues: [
              {
                path: "chatId",
                message: /*i18n*/ {
                  id: "error.messaging.chatIdUnreachable",
                  message: "chatId cannot be reached by the bot",
                },
              },
            ],
          },
        )
      : new AppError(
          "SERVICE_UNAVAILABLE",
          /*i18n*/ {
            id: "error.messaging.telegramBusy",
            message: "Telegram did not take the message now; try again shortly",
          },
        );
  throw result.status === "gone" || result.status === "failed"
    ? new AppError(
        "BAD_REQUEST",
        /*i18n*/ {
          id: "error.messaging.whatsappUnreachable",
          message: "WhatsApp cannot deliver to this number. Check the number and that it uses WhatsApp.",
        },
        {
          issues: [
            {
              path: "phoneNumber",
              message: /*i18n*/ {
                id: "error.messaging.phoneUnreachable",
                message: "phoneNumber cannot be reached on WhatsApp",
              },
            },
          ],
        },
      )
    : new AppError(
        "SERVICE_UNAVAILABLE",
        /*i18n*/ {
          id: "error.messaging.whatsappBusy",
          message: "WhatsApp did not take the message now; try again shortly",
        },
      );
};

/**
 * The approved template WhatsApp requires outside the 24-hour window: "MyTess: {{1}}\n{{2}}" (title, then body and
 * link), registered under the same name in each language we write.
 */
export const WHATSAPP_TEMPLATE = "mytess_notification";
export const template = (locale: TLanguage, n: { title?: string; body: string; url?: string }) => ({
  name: WHATSAPP_TEMPLATE,
  languageCode: locale,
  bodyParams: [n.title ?? "MyTess", [n.body, n.url].filter(Boolean).join("\n")],
});
