import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { JOBS } from "../modules/jobs";
import { autoCompleteDeliveries } from "../modules/trips/trip";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
const HOUR = 60 * 60 * 1000;

let t: TTestApp;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let driver2: TClient;
let anon: TClient;
let ids: Record<string, number>;
let loadId: number;
let bidId: number;

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  driver2 = createClient(t);
  anon = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper")).id,
    otherShipper: (await registerUser(otherShipper, "shipper")).id,
    driver: (await registerUser(driver, "driver")).id,
    driver2: (await registerUser(driver2, "driver")).id,
  };
  loadId = (await shipper.post("/api/loads", loadInput({ budgetAmount: 1000 }))).json.id;
  bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid.id;
});

/** Awarded, picked up and delivered: the load waits for the shipper's answer. */
const deliver = async () => {
  expect((await shipper.post(`/api/bids/${bidId}/accept`)).status).toBe(200);
  expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
  expect((await driver.post(`/api/loads/${loadId}/deliver`)).json.status).toBe("delivered");
};

const kinds = async (who: TClient = shipper) =>
  ((await who.get(`/api/loads/${loadId}/timeline`)).json as { kind: string }[]).map((e) => e.kind);

const status = async () => (await shipper.get(`/api/loads/${loadId}`)).json.status;

describe("the trip's timeline", () => {
  test("each step after the award is one event, with who took it and when, seen by both parties", async () => {
    expect(await kinds()).toEqual([]);
    await deliver();
    const timeline = (await driver.get(`/api/loads/${loadId}/timeline`)).json;
    expect(timeline.map((e: { kind: string }) => e.kind)).toEqual(["awarded", "picked_up", "delivered"]);
    expect(timeline[0]).toMatchObject({
      kind: "awarded",
      actor: { id: ids.shipper },
      detail: { bidId, driverId: ids.driver, amountMinor: 90000, currency: "USD" },
    });
    expect(timeline[1].actor.id).toBe(ids.driver);
    expect(Date.parse(timeline[2].at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).json.status).toBe("completed");
    expect(await kinds(driver)).toEqual(["awarded", "picked_up", "delivered", "pod_accepted", "completed"]);
  });

  test("another account gets 404, a signed-out caller 401, a bad id 400 naming it", async () => {
    await deliver();
    expect((await otherShipper.get(`/api/loads/${loadId}/timeline`)).status).toBe(404);
    expect((await driver2.get(`/api/loads/${loadId}/timeline`)).status).toBe(404);
    expect((await anon.get(`/api/loads/${loadId}/timeline`)).status).toBe(401);
    const bad = await shipper.get("/api/loads/abc/timeline");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("id");
  });

  test("a step the status does not allow writes no event", async () => {
    await shipper.post(`/api/bids/${bidId}/accept`);
    expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(409);
    expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(409);
    expect(await kinds()).toEqual(["awarded"]);
  });
});

describe("accepting or disputing a delivery", () => {
  test("the shipper accepts: completed, the driver's trips count up", async () => {
    await deliver();
    expect((await driver.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(403);
    expect((await otherShipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(404);
    expect((await anon.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(401);
    expect(await status()).toBe("delivered");
    expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).json.status).toBe("completed");
    expect((await driver.get("/api/auth/user")).json.user.totalTrips).toBe(1);
    expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(409);
  });

  test("the shipper disputes with a reason: the load is disputed and the reason is on the timeline", async () => {
    await deliver();
    const noReason = await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "  " });
    expect(noReason.status).toBe(400);
    expect(noReason.json.issues[0].path).toBe("reason");
    expect((await otherShipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "x" })).status).toBe(404);
    expect((await driver.post(`/api/loads/${loadId}/pod/dispute`, { reason: "x" })).status).toBe(403);
    expect((await anon.post(`/api/loads/${loadId}/pod/dispute`, { reason: "x" })).status).toBe(401);
    expect(await status()).toBe("delivered");
    const disputed = await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Two pallets missing" });
    expect(disputed.status).toBe(200);
    expect(disputed.json.status).toBe("disputed");
    expect((await driver.get(`/api/loads/${loadId}`)).json.status).toBe("disputed");
    const last = (await shipper.get(`/api/loads/${loadId}/timeline`)).json.at(-1);
    expect(last).toMatchObject({
      kind: "disputed",
      actor: { id: ids.shipper },
      detail: { reason: "Two pallets missing" },
    });
    // Disputed twice is refused; once settled the shipper may still accept.
    expect((await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "again" })).status).toBe(409);
    expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).json.status).toBe("completed");
  });

  test("an accept and a dispute at the same moment take turns: the timeline matches the statuses answered", async () => {
    await deliver();
    const [a, d] = await Promise.all([
      shipper.post(`/api/loads/${loadId}/pod/accept`),
      shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Short" }),
    ]);
    expect(a.status).toBe(200); // an accept is allowed from delivered and from disputed
    const after = (await kinds()).slice(3);
    if (d.status === 200) {
      // The dispute went first; the accept then settled it.
      expect(after).toEqual(["disputed", "pod_accepted", "completed"]);
    } else {
      expect(d.status).toBe(409);
      expect(after).toEqual(["pod_accepted", "completed"]);
    }
    expect(await status()).toBe("completed");
  });

  test("after the award the shipper's list shows the agreed price, not a best bid", async () => {
    const before = (await shipper.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId);
    expect(before).toMatchObject({ pendingBids: 1, bestBid: { amount: 900, currency: "USD" }, agreedPrice: null });
    await deliver();
    const after = (await shipper.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId);
    expect(after).toMatchObject({ pendingBids: 0, bestBid: null, agreedPrice: { amount: 900, currency: "USD" } });
    const page = await shipper.get(`/trpc/loads.minePage?input=${encodeURIComponent(JSON.stringify({}))}`);
    expect(page.json.result.data.items[0].agreedPrice).toEqual({ amount: 900, currency: "USD" });
    // Another shipper's list does not hold it.
    expect((await otherShipper.get("/api/loads/shipper")).json).toEqual([]);
  });

  test("the disputed status is a filter of the shipper's list", async () => {
    await deliver();
    await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Damaged" });
    const page = await shipper.get(
      `/trpc/loads.minePage?input=${encodeURIComponent(JSON.stringify({ status: "disputed" }))}`,
    );
    expect(page.status).toBe(200);
    expect(page.json.result.data.items.map((l: { id: number }) => l.id)).toEqual([loadId]);
  });
});

describe("completion after 48 hours without an answer", () => {
  test("the scheduled job is registered", () => {
    expect(JOBS.find((j) => j.kind === "trip_auto_complete")?.schedule?.everyMs).toBe(10 * 60_000);
  });

  test("an unanswered delivery completes by itself after 48 hours, by the system; not before", async () => {
    await deliver();
    const now = Date.now();
    expect(await autoCompleteDeliveries(t.db, now + 47 * HOUR)).toEqual([]);
    expect(await status()).toBe("delivered");
    expect(await autoCompleteDeliveries(t.db, now + 48 * HOUR + 60_000)).toEqual([loadId]);
    expect(await status()).toBe("completed");
    const last = (await shipper.get(`/api/loads/${loadId}/timeline`)).json.at(-1);
    expect(last).toMatchObject({ kind: "completed", actor: null, detail: { automatic: true } });
    expect((await driver.get("/api/auth/user")).json.user.totalTrips).toBe(1);
  });

  test("a disputed delivery never completes by itself, and a dispute after 48 hours is refused", async () => {
    await deliver();
    await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Wrong goods" });
    expect(await autoCompleteDeliveries(t.db, Date.now() + 100 * HOUR)).toEqual([]);
    expect(await status()).toBe("disputed");
  });

  test("past 48 hours the shipper can no longer dispute", async () => {
    await deliver();
    await t.rows("UPDATE loads SET delivered_at = ? WHERE id = ?", Date.now() - 49 * HOUR, loadId);
    const late = await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Late complaint" });
    expect(late.status).toBe(409);
    expect(late.json.message).toContain("48 hours");
    expect(await status()).toBe("delivered");
  });
});
