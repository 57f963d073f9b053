import { webhookCallback } from "grammy";
import type { TDb } from "../../../../db/client";
import { telegramApiRoot } from "../../integrations/notify/telegram";
import type { TServices } from "../../trpc/context";
import { createTelegramBot } from "./bot";

/**
 * The secret Telegram sends with every webhook call (X-Telegram-Bot-Api-Secret-Token): TELEGRAM_WEBHOOK_SECRET, which
 * a webhook deployment must set (1–256 characters of A-Z, a-z, 0-9, _ and -).
 */
export const telegramWebhookSecret = (env: Record<string, string | undefined> = process.env) => {
  const secret = env.TELEGRAM_WEBHOOK_SECRET ?? "";
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret))
    throw new Error("TELEGRAM_WEBHOOK_SECRET (1–256 of A-Z, a-z, 0-9, _ and -) is required with TELEGRAM_WEBHOOK_URL");
  return secret;
};

/**
 * POST /api/telegram/webhook when TELEGRAM_WEBHOOK_URL is set: grammY checks the secret header (401 otherwise) and
 * runs the update through the same bot as polling would.
 */
export const telegramWebhookHandler = (
  env: Record<string, string | undefined>,
  deps: { db: TDb; services: TServices; baseUrl: string },
): ((req: Request) => Promise<Response>) | null => {
  if (!env.TELEGRAM_BOT_TOKEN || !env.TELEGRAM_WEBHOOK_URL) return null;
  const bot = createTelegramBot({ token: env.TELEGRAM_BOT_TOKEN, apiRoot: telegramApiRoot(env) }, deps);
  return webhookCallback(bot, "std/http", { secretToken: telegramWebhookSecret(env) });
};
