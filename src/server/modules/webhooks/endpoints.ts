// A user's webhook endpoints and their deliveries log. The secret that signs an endpoint's deliveries is shown once, in
// the creation's answer, and kept sealed by the server key (`services.secrets`, the boards' credentials' box).
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type User, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../../../db/tables";
import type { TCreateWebhookEndpointInput, TWebhookEvent } from "../../../shared/schemas/webhooks";
import { WEBHOOK_EVENTS } from "../../../shared/schemas/webhooks";
import { AppError } from "../../errors";
import { checkedAddresses, checkUrl, isTrusted, OutgoingRefused } from "../../integrations/http/guard";
import { enqueue } from "../../jobs/queue";
import type { TServices } from "../../services";
import { webhookDeliveryJob } from "./jobs";
import { checkSandboxOwner, sandboxReceiverUrl, shareSecretWithSandbox, trustedFor } from "./sandbox";

/** Endpoints one account may hold. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** Deliveries the log lists, newest first; attempts listed per delivery. */
const LOG_DELIVERIES = 50;
const LOG_ATTEMPTS = 20;

export const ENDPOINT_NOT_FOUND = /*i18n*/ { id: "error.webhooks.notFound", message: "Webhook endpoint not found" };
const DELIVERY_NOT_FOUND = /*i18n*/ { id: "error.webhooks.deliveryNotFound", message: "Webhook delivery not found" };

const URL_REFUSED = /*i18n*/ {
  id: "error.webhooks.urlRefused",
  message: "url must be a public https address: {host} is not one",
};
const SANDBOX_DOWN = /*i18n*/ {
  id: "error.webhooks.sandboxDown",
  message: "The Sandbox webhook receiver is not answering; try again in a moment",
};
const URL_UNRESOLVED = /*i18n*/ {
  id: "error.webhooks.urlUnresolved",
  message: "url cannot be used: {host} does not resolve",
};

export const eventsOf = (text: string): TWebhookEvent[] => WEBHOOK_EVENTS.filter((e) => text.split(" ").includes(e));

const iso = (ms: number) => new Date(ms).toISOString();

const toPublic = (row: typeof webhookEndpoints.$inferSelect) => ({
  id: row.id,
  url: row.url,
  events: eventsOf(row.events),
  createdAt: iso(row.createdAt),
});

/**
 * Whether an endpoint's URL may be called: https, not a local name, and every address its name resolves to public (the
 * outgoing-call guard's checks, made again at every delivery). Origins the operator trusts (SANDBOX_ORIGINS; the
 * tests' own receivers) and, in demo mode, a Sandbox receiver's exact URL may be plain http on loopback. A refusal is
 * a 400 naming `url`.
 */
export const checkEndpointUrl = async (url: string, services: Pick<TServices, "boards" | "webhooks">) => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw refusedUrl(URL_REFUSED, "?");
  }
  const trusted = isTrusted(u, trustedFor(url, services));
  try {
    checkUrl(u, trusted);
    await checkedAddresses(u, trusted, AbortSignal.timeout(5000));
  } catch (err) {
    if (!(err instanceof OutgoingRefused)) throw refusedUrl(URL_UNRESOLVED, u.hostname);
    throw refusedUrl(err.refusal === "unresolved" ? URL_UNRESOLVED : URL_REFUSED, err.host || u.hostname);
  }
};

const refusedUrl = (m: { id: string; message: string }, host: string) => {
  const message = { ...m, values: { host } };
  return new AppError("BAD_REQUEST", message, { issues: [{ path: "url", message }] });
};

/** A new signing secret: `whsec_` and 32 random bytes. */
const newSecret = () => `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;

export const listEndpoints = async (db: TDb, actor: User) =>
  (
    await db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, actor.id))
      .orderBy(desc(webhookEndpoints.id))
  ).map(toPublic);

/** A new endpoint; its secret is in this answer only. */
export const createEndpoint = async (
  db: TDb,
  services: Pick<TServices, "boards" | "secrets" | "webhooks" | "log">,
  actor: User,
  input: TCreateWebhookEndpointInput,
  now = Date.now(),
) => {
  await checkEndpointUrl(input.url, services);
  checkSandboxOwner(input.url, services, actor);
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, actor.id));
  if (Number(n) >= MAX_WEBHOOK_ENDPOINTS)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.webhooks.tooMany",
        message: "You have {max} webhook endpoints already; delete one first",
        values: { max: MAX_WEBHOOK_ENDPOINTS },
      },
    );
  const secret = newSecret();
  // The Sandbox receiver learns the secret first, so it can check the first delivery; nothing is saved if it cannot.
  if (sandboxReceiverUrl(input.url, services))
    await shareSecretWithSandbox(input.url, secret, services).catch((err) => {
      services.log.warn("webhooks: the Sandbox receiver did not take the secret", { error: String(err) });
      throw new AppError("SERVICE_UNAVAILABLE", SANDBOX_DOWN);
    });
  const events = WEBHOOK_EVENTS.filter((e) => input.events.includes(e));
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      userId: actor.id,
      url: input.url,
      events: events.join(" "),
      secretSealed: services.secrets.seal(secret),
      createdAt: now,
    })
    .returning();
  if (!row) throw new AppError("INTERNAL_SERVER_ERROR", ENDPOINT_NOT_FOUND);
  return { ...toPublic(row), secret };
};

/** Deletes an endpoint with its deliveries; their pending jobs find nothing to send and end. */
export const deleteEndpoint = async (db: TDb, actor: User, id: number) => {
  const gone = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, actor.id)))
    .returning({ id: webhookEndpoints.id });
  if (!gone.length) throw new AppError("NOT_FOUND", ENDPOINT_NOT_FOUND);
  return { ok: true as const };
};

/** The endpoint's newest deliveries with their newest attempts; 404 for another account's endpoint. */
export const listDeliveries = async (db: TDb, actor: User, endpointId: number) => {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, actor.id)));
  if (!endpoint) throw new AppError("NOT_FOUND", ENDPOINT_NOT_FOUND);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(LOG_DELIVERIES);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(webhookAttempts.id))
    : [];
  const byDelivery = new Map<number, typeof attempts>();
  for (const a of attempts) {
    const list = byDelivery.get(a.deliveryId) ?? [];
    if (list.length < LOG_ATTEMPTS) list.push(a);
    byDelivery.set(a.deliveryId, list);
  }
  return rows.map((r) => ({
    id: r.id,
    event: r.event as TWebhookEvent,
    eventId: r.eventId,
    status: r.status,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    lastStatusCode: r.lastStatusCode,
    body: r.body,
    attempts: (byDelivery.get(r.id) ?? []).map((a) => ({
      at: iso(a.createdAt),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      resend: Boolean(a.resend),
    })),
  }));
};

/** Sends a delivery again, once, through the queue (its body as it was; a fresh timestamp and signature). */
export const resendDelivery = async (db: TDb, actor: User, deliveryId: number, now = Date.now()) => {
  const [row] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.userId, actor.id)));
  if (!row) throw new AppError("NOT_FOUND", DELIVERY_NOT_FOUND);
  await enqueue(db, webhookDeliveryJob, { deliveryId, resend: true }, {}, now);
  return { ok: true as const, deliveryId };
};
