// Messaging preferences: where a user's chat notifications go (WhatsApp, Telegram), which types, in which
// language; the Telegram deep link that links a chat; the test messages of the /messaging page. A chat or number is
// bound to an account only by proof: a Telegram chat through the deep link (the bot sees the chat), a WhatsApp number
// through a code sent to it (whatsapp-verification.ts). What the page saves never binds either.
import { and, count, eq, gte } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type MessagingPreferences, messagingPreferences, notifications } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import {
  DEFAULT_MESSAGING_TYPES,
  type TMessagingPreferencesInput,
  type TMessagingType,
} from "../../../shared/schemas/messaging";
import { AppError } from "../../errors";
import { i18n, isLanguage } from "../../i18n";
import type { TNotifierRegistry } from "../../integrations/notifiers/registry";
import type { TSendResult } from "../../integrations/notifiers/types";
import type { TSecretBox } from "../../secrets";
import { telegramLinkToken } from "./telegram-link";

/** Test messages a user may send per channel and hour: enough to fix a typo, too few to spam a stranger. */
export const TEST_SENDS_PER_HOUR = 5;

/** What the messaging functions reach outside the database: the channels, and the key that derives link tokens. */
export type TMessagingDeps = { notifiers: TNotifierRegistry; secrets: TSecretBox };

export type TMessagingPrefs = {
  whatsappEnabled: boolean;
  /** The verified number: the only one anything is sent to or answered for; null until a number is proven. */
  whatsappNumber: string | null;
  /** A number saved but not proven: nothing but its code is sent to it. */
  whatsappPendingNumber: string | null;
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
  whatsappPendingNumber: r?.whatsappPendingNumber ?? null,
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
  // Messages are in English until the user chooses a language for them.
  language: r && isLanguage(r.language) ? r.language : "en",
});

/** The user's messaging preferences; the defaults (both channels off) when never saved. */
export const messagingPreferencesOf = async (db: Pick<TDb, "select">, userId: number) => {
  const [r] = await db.select().from(messagingPreferences).where(eq(messagingPreferences.userId, userId));
  return fromRow(r);
};

export const channelState = (notifiers: TNotifierRegistry, channel: "telegram" | "whatsapp") =>
  notifiers.states().find((s) => s.channel === channel)?.state ?? "not_configured";

/**
 * GET /api/messaging/preferences: the messaging preferences (the WhatsApp number is the verified one, else the one
 * waiting for its proof, with `whatsappVerified` saying which), the deep link, whether the bot was blocked, channel
 * states.
 */
export const messagingView = async (db: TDb, deps: TMessagingDeps, userId: number, now = Date.now()) => {
  const p = await messagingPreferencesOf(db, userId);
  const username = await deps.notifiers.telegramBotUsername();
  const telegramLinkUrl = username
    ? `https://t.me/${username}?start=${await telegramLinkToken(db, deps.secrets, userId, now)}`
    : null;
  return {
    whatsappEnabled: p.whatsappEnabled,
    whatsappNumber: p.whatsappNumber ?? p.whatsappPendingNumber,
    /** Whether `whatsappNumber` was proven with a code; an unverified number is sent nothing but its code. */
    whatsappVerified: p.whatsappNumber !== null,
    telegramEnabled: p.telegramEnabled,
    telegramChatId: p.telegramChatId,
    notificationTypes: p.notificationTypes,
    language: p.language,
    telegramLinkUrl,
    /** Telegram said the user blocked the bot; Telegram was turned off until the chat is linked again. */
    telegramBlocked: p.telegramBlockedAt !== null,
    channels: {
      telegram: channelState(deps.notifiers, "telegram"),
      whatsapp: channelState(deps.notifiers, "whatsapp"),
    },
  };
};

const TELEGRAM_LINK_ONLY = /*i18n*/ {
  id: "error.messaging.telegramLinkOnly",
  message: "A Telegram chat is linked only from the bot: press Connect Telegram, then Start in Telegram",
};
const TELEGRAM_CHAT_NOT_LINKED = /*i18n*/ {
  id: "error.messaging.telegramChatNotLinked",
  message: "telegramChatId can only be the chat linked through Connect Telegram",
};

/**
 * PUT /api/messaging/preferences. The Telegram chat is the one the bot linked: the same id or none keeps it, another
 * is refused naming the field (a chat is linked only by its deep link, unlinked by /stop). A WhatsApp number other than
 * the verified one is kept as unverified (replacing the verified one, which gets nothing more): it reserves nothing
 * and is sent nothing until proven with a code; an empty number removes both.
 */
export const saveMessagingPreferences = (
  db: TDb,
  deps: TMessagingDeps,
  userId: number,
  input: TMessagingPreferencesInput,
  now = Date.now(),
) =>
  db
    .transaction(async (tx) => {
      const [current] = await tx.select().from(messagingPreferences).where(eq(messagingPreferences.userId, userId));
      const linked = current?.telegramChatId ?? null;
      const chat = input.telegramChatId ?? null;
      if (chat !== null && chat !== linked)
        throw new AppError("BAD_REQUEST", TELEGRAM_LINK_ONLY, {
          issues: [{ path: "telegramChatId", message: TELEGRAM_CHAT_NOT_LINKED }],
        });
      const phone = input.whatsappNumber ?? null;
      const verified = phone !== null && phone === current?.whatsappNumber;
      const values = {
        whatsappEnabled: input.whatsappEnabled,
        whatsappNumber: verified ? phone : null,
        whatsappPendingNumber: verified ? null : phone,
        // WhatsApp's 24-hour window belongs to the verified number.
        whatsappLastInboundAt: verified ? (current?.whatsappLastInboundAt ?? null) : null,
        telegramEnabled: input.telegramEnabled && linked !== null,
        // Turning Telegram back on is the user saying the bot may write again.
        telegramBlockedAt: !input.telegramEnabled ? (current?.telegramBlockedAt ?? null) : null,
        ...input.notificationTypes,
        language: input.language,
        updatedAt: now,
      };
      await tx
        .insert(messagingPreferences)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: messagingPreferences.userId, set: values });
    })
    .then(() => messagingView(db, deps, userId, now));
/** Telegram answered 403 (bot blocked): Telegram is off for the user until they link or turn it on again. */
export const markTelegramBlocked = (db: Pick<TDb, "update">, userId: number, now = Date.now()) =>
  db
    .update(messagingPreferences)
    .set({ telegramEnabled: false, telegramBlockedAt: now, updatedAt: now })
    .where(eq(messagingPreferences.userId, userId));

/** Test messages are fixed text saying they are a test from MyTess; what the caller sends is not relayed. */
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

const TEST_TO_LINKED_CHAT = /*i18n*/ {
  id: "error.messaging.testChatNotLinked",
  message: "Test messages go only to the Telegram chat linked to your account: press Connect Telegram first",
};
const TEST_TO_VERIFIED_NUMBER = /*i18n*/ {
  id: "error.messaging.testNumberNotVerified",
  message: "Test messages go only to your verified WhatsApp number: confirm the number with its code first",
};

/** A WhatsApp send that did not go through, as the caller should read it: the number's fault, or passing trouble. */
export const whatsappNotSent = (result: Exclude<TSendResult, { status: "delivered" }>) =>
  result.status === "gone" || result.status === "failed"
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

export const whatsappNotConfigured = () => new AppError("SERVICE_UNAVAILABLE", NOT_CONFIGURED.whatsapp);

/**
 * POST /api/messaging/{telegram,whatsapp}/send with type "test": the fixed test text, in the user's messaging
 * language, to the user's own linked chat or verified number only (anything else is refused naming the field, so the
 * route cannot write to a stranger). At most TEST_SENDS_PER_HOUR per channel and hour; each try is kept in the user's
 * notification history.
 */
export const sendTestMessage = async (
  db: TDb,
  notifiers: TNotifierRegistry,
  userId: number,
  to: { channel: "telegram"; chatId: string } | { channel: "whatsapp"; phone: string },
  now = Date.now(),
) => {
  const prefs = await messagingPreferencesOf(db, userId);
  if (to.channel === "telegram" && to.chatId !== prefs.telegramChatId)
    throw new AppError("BAD_REQUEST", TEST_TO_LINKED_CHAT, {
      issues: [{ path: "chatId", message: TEST_TO_LINKED_CHAT }],
    });
  if (to.channel === "whatsapp" && to.phone !== prefs.whatsappNumber)
    throw new AppError("BAD_REQUEST", TEST_TO_VERIFIED_NUMBER, {
      issues: [{ path: "phoneNumber", message: TEST_TO_VERIFIED_NUMBER }],
    });
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
    if (!whatsapp) throw whatsappNotConfigured();
    result = await whatsapp.send(
      { phone: to.phone, lastInboundAt: prefs.whatsappLastInboundAt },
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
  if (to.channel === "whatsapp") throw whatsappNotSent(result);
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
