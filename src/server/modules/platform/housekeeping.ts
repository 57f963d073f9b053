import { lt } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  ecommerceWebhooks,
  idempotencyKeys,
  loginFailures,
  passwordResets,
  phoneCodes,
  sessions,
} from "../../../../db/tables";
import { IDEMPOTENCY_TTL_MS } from "../../../shared/constants";
import { expiredAttempts } from "../accounts/rate-limit";
import { pruneChatRecords } from "../notifications/inbound-updates";
import { pruneOldTracks } from "../tracking/prune";
import { pruneExpiredTrucks } from "../trucks/trucks";

/**
 * Clears what has expired: sessions, sign-in attempts past their window, stored answers older than a day, store webhook
 * ids older than a week, chat records (delivery ids, WhatsApp codes, Telegram link tokens) past their use, password
 * reset links and SMS codes after a day (they work 30 minutes; the hourly and daily limits count the last hour's and
 * day's), the tracks of trips that ended 90 days ago, down to their outline, and trucks a week past their available-to
 * date.
 */
export const housekeeping = async (db: TDb, now = Date.now()) => ({
  sessions: (await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash })).length,
  attempts: (await db.delete(loginFailures).where(expiredAttempts(now)).returning({ id: loginFailures.id })).length,
  answers: (
    await db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS))
      .returning({ key: idempotencyKeys.key })
  ).length,
  // Store webhook ids are kept a week: platforms retry a delivery for up to two days.
  webhooks: (
    await db
      .delete(ecommerceWebhooks)
      .where(lt(ecommerceWebhooks.receivedAt, now - 7 * 24 * 60 * 60 * 1000))
      .returning({ id: ecommerceWebhooks.webhookId })
  ).length,
  chat: await pruneChatRecords(db, now),
  resetLinks: (
    await db
      .delete(passwordResets)
      .where(lt(passwordResets.createdAt, now - 24 * 60 * 60 * 1000))
      .returning({ id: passwordResets.id })
  ).length,
  // The deployment's daily SMS limit counts the last 24 hours' rows: they go once past it.
  smsCodes: (
    await db
      .delete(phoneCodes)
      .where(lt(phoneCodes.createdAt, now - 25 * 60 * 60 * 1000))
      .returning({ id: phoneCodes.id })
  ).length,
  trackPoints: (await pruneOldTracks(db, now)).points,
  trucks: await pruneExpiredTrucks(db, now),
});
