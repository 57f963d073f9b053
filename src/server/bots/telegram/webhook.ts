import { timingSafeEqual } from "node:crypto";
import { type Bot, BotError } from "grammy";
import type { Update } from "grammy/types";
import type { TDb } from "../../../../db/client";
import { loadConfig, type TConfig } from "../../config";
import { firstDelivery } from "../../modules/notifications/inbound-updates";
import type { TServices } from "../../services";
import { createTelegramBot } from "./bot";

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

const sameSecret = (given: string | null, secret: string) => {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const isUpdate = (v: unknown): v is Update =>
  typeof v === "object" &&
  v !== null &&
  Number.isSafeInteger((v as { update_id?: unknown }).update_id) &&
  (v as { update_id: number }).update_id >= 0;

export type TTelegramWebhook = ((req: Request) => Promise<Response>) & {
  /** Resolves when the updates taken so far have been handled (tests; a stopping process). */
  idle: () => Promise<void>;
};

/**
 * Answers Telegram's webhook calls for `bot`. Telegram re-delivers every update not answered with 200, so the answer
 * never depends on handling: a call with the right secret is 200 once its update is recorded (or is unreadable, which
 * a re-delivery would not change), and the update then runs in the background. Failures while handling go to the bot's
 * error handler, as they do when polling. An update_id already recorded (a re-delivery, a replay) runs nothing. A
 * wrong or missing secret is 401; only a failure before the update is recorded (the bot's first getMe, the database)
 * answers 5xx, so Telegram delivers it again and it still runs once.
 */
export const createTelegramWebhook = (deps: {
  bot: Bot;
  secret: string;
  db: TDb;
  log: TServices["log"];
}): TTelegramWebhook => {
  const { bot, secret, db, log } = deps;
  const running = new Set<Promise<void>>();
  let ready: Promise<void> | null = null;
  const run = async (update: Update) => {
    try {
      await bot.handleUpdate(update);
    } catch (err) {
      if (err instanceof BotError) await bot.errorHandler(err);
      else throw err;
    }
  };
  const handler = async (req: Request) => {
    if (!sameSecret(req.headers.get(SECRET_HEADER), secret)) return answer(401, { ok: false });
    let update: unknown = null;
    try {
      update = JSON.parse(await req.text());
    } catch {}
    if (!isUpdate(update)) {
      log.warn("telegram webhook call without a readable update ignored");
      return answer(200, { ok: true });
    }
    if (!bot.isInited()) {
      ready ??= bot.init().catch((err) => {
        ready = null;
        throw err;
      });
      await ready;
    }
    if (!(await firstDelivery(db, "telegram", String(update.update_id)))) return answer(200, { ok: true });
    const task = run(update)
      .catch((err) => log.warn("telegram update failed", { updateId: update.update_id, error: String(err) }))
      .finally(() => running.delete(task));
    running.add(task);
    return answer(200, { ok: true });
  };
  return Object.assign(handler, {
    idle: async () => {
      while (running.size) await Promise.all([...running]);
    },
  });
};

/**
 * POST /api/telegram/webhook when TELEGRAM_WEBHOOK_URL is set: the same bot as polling would run, checking the secret
 * TELEGRAM_WEBHOOK_SECRET on every call (the configuration requires it with the URL).
 */
export const telegramWebhookFor = (
  telegram: TConfig["telegram"],
  deps: { db: TDb; services: TServices; baseUrl: string },
): TTelegramWebhook | null => {
  if (!telegram.token || !telegram.webhookUrl || !telegram.webhookSecret) return null;
  const bot = createTelegramBot({ token: telegram.token, apiRoot: telegram.apiRoot }, deps);
  return createTelegramWebhook({ bot, secret: telegram.webhookSecret, db: deps.db, log: deps.services.log });
};

/** The same from an environment's TELEGRAM_* variables, read through loadConfig. */
export const telegramWebhookHandler = (
  env: Record<string, string | undefined>,
  deps: { db: TDb; services: TServices; baseUrl: string },
) => telegramWebhookFor(loadConfig(env).telegram, deps);
