// Counter-offers through REST, as a caller sees them: who may make and answer an offer, what the bid lists show,
// what the award agrees, who is told, and the refusals (another account, signed out, bad input, wrong turn).
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let driver2: TClient;
let anon: TClient;
let ids: Record<string, number>;
let loadId: number;
let bidId: number;
let bid2Id: number;

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
  bid2Id = (await driver2.post(`/api/loads/${loadId}/bids`, { amount: 950 })).json.bid.id;
});

const counter = (who: TClient, amount: number, currency = "USD", id = bidId) =>
  who.post(`/api/bids/${id}/counter`, { amount, currency });
const accept = (who: TClient, id = bidId) => who.post(`/api/bids/${id}/counter/accept`);
const decline = (who: TClient, id = bidId) => who.post(`/api/bids/${id}/counter/decline`);

const shipperBid = async (id = bidId) =>
  ((await shipper.get(`/api/loads/${loadId}/bids`)).json as { id: number }[]).find((b) => b.id === id) as Record<
    string,
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    any
  >;
const driverBid = async (who: TClient = driver) =>
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  ((await who.get("/api/bids/driver")).json as any[]).find((b) => b.loadId === loadId);

const loadRow = async () =>
  (
    await t.rows<{
      status: string;
      assigned_driver_id: number | null;
      agreed_amount_minor: number | null;
      agreed_currency: string | null;
    }>("SELECT status, assigned_driver_id, agreed_amount_minor, agreed_currency FROM loads WHERE id = ?", loadId)
  ).map((r) => ({
    ...r,
    agreed_amount_minor: r.agreed_amount_minor == null ? null : Number(r.agreed_amount_minor),
  }))[0];

const bell = async (userId: number) =>
  (
    await t.rows<{ title: string; body: string }>(
      "SELECT title, body FROM notifications WHERE user_id = ? AND channel = 'in_app' ORDER BY id",
      userId,
    )
  ).map((r) => r.title);

const expectConflict = (res: { status: number; json: { code: string; messageId: string } }, messageId: string) => {
  expect(res.status).toBe(409);
  expect(res.json.code).toBe("CONFLICT");
  expect(res.json.messageId).toBe(messageId);
};

describe("a negotiation to an award", () => {
  test("shipper counters, driver counters back, shipper accepts: awarded at the driver's counter, history on the bid", async () => {
    const first = await counter(shipper, 800);
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      bidId,
      loadId,
      counter: { side: "shipper", amount: 800, currency: "USD", status: "open", answeredAt: null },
    });
    // Both sides see the open offer on the bid.
    expect((await shipperBid()).openCounter).toMatchObject({ side: "shipper", amount: 800 });
    const mine = await driverBid();
    expect(mine.openCounter).toMatchObject({ side: "shipper", amount: 800 });
    expect(mine.counters).toHaveLength(1);
    // The driver is told, in their bell.
    expect(await bell(ids.driver)).toContain("New counter-offer");

    const back = await counter(driver, 850);
    expect(back.status).toBe(201);
    expect(back.json.counter).toMatchObject({ side: "driver", amount: 850, status: "open" });
    expect(await bell(ids.shipper)).toContain("New counter-offer");

    const award = await accept(shipper);
    expect(award.status).toBe(200);
    expect(award.json).toMatchObject({
      bidId,
      loadId,
      status: "assigned",
      assignedDriverId: ids.driver,
      agreedAmount: 850,
      agreedCurrency: "USD",
      rejected: 1,
      counter: { side: "driver", amount: 850, status: "accepted" },
    });
    // The agreed amount is stored on the load, in minor units; the bid keeps its own amount.
    expect(await loadRow()).toEqual({
      status: "assigned",
      assigned_driver_id: ids.driver,
      agreed_amount_minor: 85000,
      agreed_currency: "USD",
    });
    const after = await shipperBid();
    expect(after).toMatchObject({ status: "accepted", amount: 900, openCounter: null });
    expect(
      after.counters.map((c: { side: string; amount: number; status: string }) => [c.side, c.amount, c.status]),
    ).toEqual([
      ["shipper", 800, "countered"],
      ["driver", 850, "accepted"],
    ]);
    expect((await shipperBid(bid2Id)).status).toBe("rejected");
    expect(await bell(ids.driver)).toContain("Your counter-offer was accepted");
    expect(await bell(ids.driver2)).toContain("Your bid was not accepted");
    // The trip's award records the agreed amount.
    const timeline = (await driver.get(`/api/loads/${loadId}/timeline`)).json;
    expect(timeline[0]).toMatchObject({ kind: "awarded" });
    expect(JSON.stringify(timeline[0])).toContain("85000");
  });

  test("the driver accepts the shipper's counter: awarded at the shipper's amount, in its currency", async () => {
    expect((await counter(shipper, 100000, "ETB")).status).toBe(201);
    const award = await accept(driver);
    expect(award.status).toBe(200);
    expect(award.json).toMatchObject({ agreedAmount: 100000, agreedCurrency: "ETB", assignedDriverId: ids.driver });
    expect(await loadRow()).toMatchObject({
      status: "assigned",
      agreed_amount_minor: 10000000,
      agreed_currency: "ETB",
    });
    expect(await bell(ids.shipper)).toContain("Your counter-offer was accepted");
  });

  test("accepting a bid at its own amount agrees that amount and closes its open offer", async () => {
    expect((await counter(shipper, 800)).status).toBe(201);
    const res = await shipper.post(`/api/bids/${bidId}/accept`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ agreedAmount: 900, agreedCurrency: "USD" });
    expect(await loadRow()).toMatchObject({ agreed_amount_minor: 90000, agreed_currency: "USD" });
    const b = await shipperBid();
    expect(b.openCounter).toBeNull();
    expect(b.counters[0].status).toBe("closed");
    expectConflict(await accept(driver), "error.counter.noneOpen");
  });

  test("a declined offer leaves the bid pending at its amount; the author is told and may offer again", async () => {
    expect((await counter(shipper, 800)).status).toBe(201);
    const res = await decline(driver);
    expect(res.status).toBe(200);
    expect(res.json.counter).toMatchObject({ side: "shipper", amount: 800, status: "declined" });
    expect(res.json.counter.answeredAt).not.toBeNull();
    expect(await bell(ids.shipper)).toContain("Your counter-offer was declined");
    expect(await shipperBid()).toMatchObject({ status: "pending", amount: 900, openCounter: null });
    expect((await loadRow()).status).toBe("posted");
    expect((await counter(shipper, 820)).status).toBe(201);
    // The shipper declines the driver's counter-back the same way.
    expect((await counter(driver, 870)).status).toBe(201);
    expect((await decline(shipper)).status).toBe(200);
    expect((await shipperBid()).counters.map((c: { status: string }) => c.status)).toEqual([
      "declined",
      "countered",
      "declined",
    ]);
  });
});

describe("whose turn it is", () => {
  test("one open offer per side: a second offer before the answer is a 409; the driver counters only an offer", async () => {
    expectConflict(await counter(driver, 850), "error.counter.driverNeedsOffer");
    expect((await counter(shipper, 800)).status).toBe(201);
    expectConflict(await counter(shipper, 790), "error.counter.ownOfferOpen");
    // The author cannot answer their own offer.
    expectConflict(await accept(shipper), "error.counter.ownOffer");
    expectConflict(await decline(shipper), "error.counter.ownOffer");
    expect((await counter(driver, 850)).status).toBe(201);
    expectConflict(await counter(driver, 840), "error.counter.ownOfferOpen");
    expectConflict(await accept(driver), "error.counter.ownOffer");
    // No offer open: nothing to answer.
    expectConflict(await accept(driver2, bid2Id), "error.counter.noneOpen");
  });

  test("changing or withdrawing the bid closes its open offer; a bid that is no longer pending takes no offer", async () => {
    expect((await counter(shipper, 800)).status).toBe(201);
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 880 })).status).toBe(201);
    expect(await shipperBid()).toMatchObject({ amount: 880, openCounter: null });
    expectConflict(await accept(driver), "error.counter.noneOpen");
    expect((await counter(shipper, 820)).status).toBe(201);
    expect((await driver.del(`/api/bids/${bidId}`)).status).toBe(200);
    expect((await driverBid()).counters.map((c: { status: string }) => c.status)).toEqual(["closed", "closed"]);
    expectConflict(await counter(shipper, 810), "error.counter.bidNotPending");
  });

  test("a cancelled load closes the open offers of its bids", async () => {
    expect((await counter(shipper, 800)).status).toBe(201);
    expect((await shipper.post(`/api/loads/${loadId}/cancel`, {})).status).toBe(200);
    expect((await driverBid()).openCounter).toBeNull();
    expectConflict(await accept(driver), "error.counter.noneOpen");
  });
});

describe("refusals", () => {
  test("another account gets the bid's 404 on every step, and changes nothing", async () => {
    for (const who of [otherShipper, driver2]) {
      const res = await counter(who, 700);
      expect(res.status).toBe(404);
      expect(res.json.messageId).toBe("error.bid.notFound");
    }
    expect((await counter(shipper, 800)).status).toBe(201);
    for (const who of [otherShipper, driver2]) {
      expect((await accept(who)).status).toBe(404);
      expect((await decline(who)).status).toBe(404);
    }
    expect((await shipperBid()).openCounter).toMatchObject({ amount: 800, status: "open" });
    // The bid lists stay each account's own.
    expect((await otherShipper.get(`/api/loads/${loadId}/bids`)).status).toBe(404);
    expect(await driverBid(driver2)).toMatchObject({ id: bid2Id, counters: [] });
    // An id that does not exist is the same 404.
    expect((await counter(shipper, 800, "USD", 999999)).status).toBe(404);
  });

  test("signed out: 401 on every step", async () => {
    expect((await counter(anon, 800)).status).toBe(401);
    expect((await accept(anon)).status).toBe(401);
    expect((await decline(anon)).status).toBe(401);
  });

  test("bad input is a 400 naming the field, and nothing is written", async () => {
    const cases: [unknown, string][] = [
      [{ currency: "USD" }, "amount"],
      [{ amount: -5, currency: "USD" }, "amount"],
      [{ amount: 0, currency: "USD" }, "amount"],
      [{ amount: 10.555, currency: "USD" }, "amount"],
      [{ amount: "eight hundred", currency: "USD" }, "amount"],
      [{ amount: 800 }, "currency"],
      [{ amount: 800, currency: "XYZ" }, "currency"],
    ];
    for (const [body, field] of cases) {
      const res = await shipper.post(`/api/bids/${bidId}/counter`, body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    const badId = await shipper.post("/api/bids/abc/counter", { amount: 800, currency: "USD" });
    expect(badId.status).toBe(400);
    expect(badId.text).toContain("id");
    expect((await shipperBid()).counters).toEqual([]);
  });
});
