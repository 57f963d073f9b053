// Inbound chat deliveries (Telegram updates, WhatsApp messages) are taken once: Telegram re-delivers an update its
// webhook did not answer with 200, Meta re-delivers webhooks, and a signed request can be replayed within its
// window. The first delivery of an id is recorded in the database, shared by every server process, before anything
// runs; a later one with the same id does nothing.
import { lt } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { inboundUpdates, telegramLinkTokens, whatsappCodes } from "../../../../db/tables";
import { CODE_KEEP_MS } from "./whatsapp-verification";

export type TInboundSource = "telegram" | "whatsapp" | "whatsapp-web";

/** Telegram re-delivers an update for up to a day and Meta for a few; ids are kept a week. */
export const INBOUND_KEEP_MS = 7 * 24 * 60 * 60_000;

/** True for the first delivery of `externalId` from `source`, which is recorded; false for any later one. */
export const firstDelivery = async (db: TDb, source: TInboundSource, externalId: string, now = Date.now()) =>
  (
    await db
      .insert(inboundUpdates)
      .values({ source, externalId, receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: inboundUpdates.externalId })
  ).length > 0;

/** Housekeeping: delivery ids past INBOUND_KEEP_MS, WhatsApp codes past CODE_KEEP_MS, expired Telegram link tokens. */
export const pruneChatRecords = async (db: TDb, now = Date.now()) =>
  (
    await db
      .delete(inboundUpdates)
      .where(lt(inboundUpdates.receivedAt, now - INBOUND_KEEP_MS))
      .returning({ id: inboundUpdates.externalId })
  ).length +
  (
    await db
      .delete(whatsappCodes)
      .where(lt(whatsappCodes.createdAt, now - CODE_KEEP_MS))
      .returning({ id: whatsappCodes.id })
  ).length +
  (
    await db
      .delete(telegramLinkTokens)
      .where(lt(telegramLinkTokens.expiresAt, now))
      .returning({ id: telegramLinkTokens.tokenHash })
  ).length;
