import { lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { idempotencyKeys, loginFailures, sessions } from "../../../db/schema";
import { LOGIN_LIMITS } from "../domain/auth/rate-limit";
import { IDEMPOTENCY_TTL_MS } from "../http/idempotency";

/** Clears what has expired: sessions, sign-in attempts past their window, stored answers older than a day. */
export const housekeeping = (db: Db, now = Date.now()) => ({
  sessions: db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash }).all().length,
  attempts: db
    .delete(loginFailures)
    .where(lt(loginFailures.at, now - LOGIN_LIMITS.windowMs))
    .returning({ id: loginFailures.id })
    .all().length,
  answers: db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS))
    .returning({ key: idempotencyKeys.key })
    .all().length,
});
