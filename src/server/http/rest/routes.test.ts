import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { authedProcedure, createTRPCRouter } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { REST_ROUTES, restRoutesOf } from "./routes";

// The API's paths are fixed (callers and the web app's offline queue use them): generating the routes from the
// procedures' metadata must give exactly these.
const PATHS = `
DELETE /api/bids/:id
DELETE /api/companies/:id/invitations/:invitationId
DELETE /api/companies/:id/members/:userId
DELETE /api/ecommerce/integrations/:id
DELETE /api/loads/:id/tracking-link
DELETE /api/marketplaces/:id
DELETE /api/marketplaces/lanes/:id
DELETE /api/push/subscribe
DELETE /api/saved-searches/:id
DELETE /api/shipping/shipments/:id
DELETE /api/tokens/:id
DELETE /api/trucks/:id
DELETE /api/user
DELETE /api/webhook-endpoints/:id
GET /api/auth/user
GET /api/bids/driver
GET /api/companies/:id
GET /api/companies/mine
GET /api/dashboard
GET /api/dev/mail
GET /api/dev/sms
GET /api/dev/webhook-receiver
GET /api/dev/webhook-sandbox
GET /api/dev/webhooks
GET /api/drivers/stats
GET /api/drivers/trips
GET /api/ecommerce/integrations
GET /api/ecommerce/orders
GET /api/ecommerce/orders/:id/draft
GET /api/fx-rates
GET /api/invitations/:token
GET /api/loads
GET /api/loads/:id
GET /api/loads/:id/bids
GET /api/loads/:id/conversations
GET /api/loads/:id/documents
GET /api/loads/:id/messages
GET /api/loads/:id/payment
GET /api/loads/:id/preview
GET /api/loads/:id/rate-confirmation
GET /api/loads/:id/timeline
GET /api/loads/:id/track
GET /api/loads/:id/tracking-link
GET /api/loads/points
GET /api/loads/shipper
GET /api/loads/stats
GET /api/marketplaces
GET /api/marketplaces/lanes
GET /api/marketplaces/sync-runs
GET /api/messaging/load-alerts
GET /api/messaging/preferences
GET /api/notifications
GET /api/notifications/unread-count
GET /api/payments
GET /api/payouts/account
GET /api/payouts/banks
GET /api/places
GET /api/places/labels
GET /api/platform-stats
GET /api/push/notifications
GET /api/push/preferences
GET /api/push/vapid-key
GET /api/saved-searches
GET /api/shipping/carriers
GET /api/shipping/shipments
GET /api/shipping/track/:first
GET /api/shipping/track/:first/:trackingNumber
GET /api/subscription/payments
GET /api/subscription/prices
GET /api/subscription/status
GET /api/sync/status
GET /api/tokens
GET /api/track/:token
GET /api/trucks
GET /api/trucks/invitations
GET /api/trucks/search
GET /api/user/export
GET /api/verification
GET /api/verification/submissions
GET /api/webhook-endpoints
GET /api/webhook-endpoints/:id/deliveries
PATCH /api/loads/:id
POST /api/auth/email/verify
POST /api/auth/login
POST /api/auth/password/forgot
POST /api/auth/password/reset
POST /api/auth/phone/start
POST /api/auth/phone/verify
POST /api/auth/register
POST /api/bids/:id/accept
POST /api/bids/:id/counter
POST /api/bids/:id/counter/accept
POST /api/bids/:id/counter/decline
POST /api/bids/:id/reject
POST /api/companies
POST /api/companies/:id/invitations
POST /api/drivers/location
POST /api/ecommerce/integrations
POST /api/ecommerce/integrations/:id/sync
POST /api/ecommerce/integrations/:id/test
POST /api/ecommerce/orders/:id/convert
POST /api/invitations/:token/accept
POST /api/loads
POST /api/loads/:id/assign-driver
POST /api/loads/:id/bids
POST /api/loads/:id/cancel
POST /api/loads/:id/complete
POST /api/loads/:id/deliver
POST /api/loads/:id/delivery
POST /api/loads/:id/messages
POST /api/loads/:id/payment
POST /api/loads/:id/pickup
POST /api/loads/:id/pod/accept
POST /api/loads/:id/pod/dispute
POST /api/loads/:id/positions
POST /api/loads/:id/rate-confirmation/accept
POST /api/loads/:id/rating
POST /api/loads/:id/tracking-link
POST /api/marketplaces
POST /api/marketplaces/:id/connect
POST /api/marketplaces/:id/search
POST /api/marketplaces/:id/test
POST /api/marketplaces/lanes
POST /api/messaging/telegram/send
POST /api/messaging/whatsapp/code
POST /api/messaging/whatsapp/send
POST /api/messaging/whatsapp/verify
POST /api/notifications/read
POST /api/notifications/read-all
POST /api/payouts/account
POST /api/push/subscribe
POST /api/push/test
POST /api/saved-searches
POST /api/saved-searches/:id/open
POST /api/shipping/rates
POST /api/shipping/shipments
POST /api/subscription/cancel
POST /api/subscription/checkout
POST /api/subscription/confirm
POST /api/subscription/portal
POST /api/sync/manual
POST /api/tokens
POST /api/trucks
POST /api/trucks/:id/invitations
POST /api/user/delete-code
POST /api/user/email
POST /api/user/phone
POST /api/user/phone/verify
POST /api/verification
POST /api/verification/submissions/:id/approve
POST /api/verification/submissions/:id/reject
POST /api/webhook-deliveries/:id/resend
POST /api/webhook-endpoints
PUT /api/companies/:id/members/:userId
PUT /api/drivers/availability
PUT /api/ecommerce/integrations/:id
PUT /api/marketplaces/:id
PUT /api/marketplaces/lanes/:id
PUT /api/messaging/load-alerts
PUT /api/messaging/preferences
PUT /api/payouts/method
PUT /api/push/preferences
PUT /api/saved-searches/:id
PUT /api/user/calendar
PUT /api/user/currency
PUT /api/user/language
PUT /api/user/profile
PUT /api/user/units
`
  .trim()
  .split("\n");

const probe = (meta: Parameters<typeof rest>[2], path = "/api/probe/:id") =>
  createTRPCRouter({
    probe: authedProcedure
      .meta(rest("POST", path, meta))
      .input(z.object({ thingId: z.number(), count: z.number().optional(), note: z.string().optional() }))
      .mutation(({ input }) => input),
  });

describe("REST routes from the procedures' metadata", () => {
  test("every path of the API, each once, with its procedure and scope", () => {
    expect(REST_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(PATHS);
    const byPath = new Map(REST_ROUTES.map((r) => [`${r.method} ${r.path}`, r]));
    expect(byPath.get("GET /api/loads")).toMatchObject({ procedure: "loads.search", scope: "loads:read", status: 200 });
    expect(byPath.get("PATCH /api/loads/:id")).toMatchObject({
      procedure: "loads.update",
      scope: "loads:write",
      status: 200,
    });
    expect(byPath.get("POST /api/loads/:id/bids")).toMatchObject({ procedure: "bids.place", status: 201 });
    expect(byPath.get("GET /api/shipping/track/:first/:trackingNumber")?.procedure).toBe("shipping.track");
    for (const r of REST_ROUTES) expect(r.summary.length).toBeGreaterThan(3);
  });

  test("path ids, the query's numbers and the body make the input; a bad id is refused naming it", () => {
    const bids = REST_ROUTES.find((r) => r.method === "POST" && r.path === "/api/loads/:id/bids")!;
    expect(bids.input({ params: { id: "7" }, query: { x: "1" }, body: { amount: 5, loadId: 99 } })).toEqual({
      amount: 5,
      loadId: 7,
    });
    expect(() => bids.input({ params: { id: "7x" }, query: {}, body: {} })).toThrow("id must be a positive integer");
    const messages = REST_ROUTES.find((r) => r.method === "GET" && r.path === "/api/loads/:id/messages")!;
    expect(messages.input({ params: { id: "3" }, query: { driverId: "12" }, body: undefined })).toEqual({
      loadId: 3,
      driverId: 12,
    });
    // Empty is absent; text that is no number stays text, so the schema names the field.
    expect(messages.input({ params: { id: "3" }, query: { driverId: "" }, body: undefined })).toEqual({ loadId: 3 });
    expect(messages.input({ params: { id: "3" }, query: { driverId: "two" }, body: undefined })).toEqual({
      loadId: 3,
      driverId: "two",
    });
    // The board reads its own query text.
    const board = REST_ROUTES.find((r) => r.method === "GET" && r.path === "/api/loads")!;
    expect(board.input({ params: {}, query: { radius: "100" }, body: undefined })).toEqual({ radius: "100" });
    const track = REST_ROUTES.find((r) => r.path === "/api/shipping/track/:first/:trackingNumber")!;
    expect(track.input({ params: { first: "ups", trackingNumber: "1Z9" }, query: {}, body: undefined })).toEqual({
      carrier: "ups",
      trackingNumber: "1Z9",
    });
  });

  test("declared answers: one field, or wrapped with null as a 401", () => {
    const board = REST_ROUTES.find((r) => r.method === "GET" && r.path === "/api/loads")!;
    expect(board.answer({ items: [1, 2], total: 2 })).toEqual([1, 2]);
    const me = REST_ROUTES.find((r) => r.path === "/api/auth/user")!;
    expect(me.answer({ id: 1 })).toEqual({ user: { id: 1 } });
    expect(() => me.answer(null)).toThrow("Unauthorized");
    const plain = REST_ROUTES.find((r) => r.path === "/api/dashboard")!;
    const out = { a: 1 };
    expect(plain.answer(out)).toBe(out);
  });

  test("a malformed declaration or a path declared twice stops the start", () => {
    expect(() =>
      restRoutesOf(probe({ summary: "Probe", tags: ["Probe"], scope: "loads:read" }, "no-api-prefix")._def.record),
    ).toThrow();
    expect(() => restRoutesOf(probe({ summary: "", tags: ["Probe"], scope: "loads:read" })._def.record)).toThrow();
    const twice = createTRPCRouter({
      a: probe({ summary: "A", tags: ["P"], scope: "loads:read" }),
      b: probe({ summary: "B", tags: ["P"], scope: "loads:read" }),
    });
    expect(() => restRoutesOf(twice._def.record)).toThrow("REST route declared twice: POST /api/probe/:id (b.probe)");
    const one = restRoutesOf(
      probe({ summary: "P", tags: ["P"], scope: "loads:write", params: { id: "thingId" } })._def.record,
    );
    expect(one.map((r) => [r.method, r.path, r.procedure, r.scope])).toEqual([
      ["POST", "/api/probe/:id", "probe", "loads:write"],
    ]);
  });
});
