// Sending one delivery: the stored body, signed with the endpoint's secret under a fresh timestamp, POSTed through the
// outgoing-call guard (the URL is checked and its name resolved and checked again on every attempt, so a name that
// later points at a private address is refused then). Each attempt is logged with its status, duration and error.
import { and, eq, sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../../../db/tables";
import { guardedFetch, OutgoingRefused } from "../../integrations/http/guard";
import { networkReason } from "../../integrations/http/kit";
import type { TJobContext } from "../../jobs/queue";
import { trustedFor } from "./sandbox";

/** How long an endpoint has to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** `MyTess-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the endpoint's secret>`. */
export const signatureHeader = (secret: string, body: string, unixSeconds: number) => {
  const v1 = new Bun.CryptoHasher("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
};

const failure = (err: unknown) => {
  if (err instanceof OutgoingRefused) return `address refused (${err.refusal})`;
  const e = err as Error;
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  return networkReason(err);
};

export const deliverWebhook = async (
  p: { deliveryId: number; resend?: boolean },
  ctx: TJobContext<"secrets" | "boards" | "webhooks">,
) => {
  const { db } = ctx;
  const [row] = await db
    .select({ status: webhookDeliveries.status, url: webhookEndpoints.url, sealed: webhookEndpoints.secretSealed })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, p.deliveryId));
  // The endpoint was deleted, or a worker that died after sending left the job behind: nothing to send.
  if (!row || (!p.resend && row.status !== "pending")) return;
  // Counting the attempt takes the body: a newer position no longer replaces it from now on (see emit.ts).
  const [taken] = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(eq(webhookDeliveries.id, p.deliveryId))
    .returning({ body: webhookDeliveries.body, event: webhookDeliveries.event, eventId: webhookDeliveries.eventId });
  if (!taken) return;
  const secret = ctx.services.secrets.open(row.sealed);
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await guardedFetch(
      row.url,
      {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "MyTess-Webhooks/1",
          "MyTess-Event": taken.event,
          "MyTess-Delivery": String(p.deliveryId),
          "MyTess-Signature": signatureHeader(secret, taken.body, Math.floor(Date.now() / 1000)),
        },
        body: taken.body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      },
      { trusted: trustedFor(row.url, ctx.services) },
    );
    statusCode = res.status;
    await res.body?.cancel();
    if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
  } catch (err) {
    error = failure(err);
  }
  const now = Date.now();
  const durationMs = Math.round(performance.now() - started);
  await db.insert(webhookAttempts).values({
    deliveryId: p.deliveryId,
    statusCode,
    durationMs,
    error,
    resend: Boolean(p.resend),
    createdAt: now,
  });
  const lastAttempt = !p.resend && ctx.job.attempts >= ctx.job.maxAttempts;
  const status = error === null ? "delivered" : lastAttempt ? "failed" : undefined;
  await db
    .update(webhookDeliveries)
    .set({ lastStatusCode: statusCode, updatedAt: now, ...(status ? { status } : {}) })
    .where(and(eq(webhookDeliveries.id, p.deliveryId)));
  // A failure is retried with the kind's backoff; a resend is one attempt, and the last attempt ends the delivery.
  if (error !== null && !p.resend && !lastAttempt) throw new Error(`Webhook not delivered: ${error}`);
};
