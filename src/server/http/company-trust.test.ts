// A company's loads and bids carry the company's trust signals, over REST: a load posted by a shipper company's
// member shows the company (its name, its profile's figures, its badge) on the board and the load page, a load posted
// alone shows the person; a bid made for a carrier company by its dispatcher shows the company; the kept board rows
// give way to a rating or a completion on a company load; the shipper side accepts the rate confirmation once.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { freightPaymentEvents, freightPayments, loads, notifications, ratings, tripEvents } from "../../../db/tables";
import { loadInput, type TTestApp } from "../testing";
import { companyFixture, type TClient } from "./testing-company";

setDefaultTimeout(60_000);

const { fx, newUser, join } = companyFixture(9);
let t: TTestApp;
beforeEach(() => {
  t = fx.t;
});

const BOARD = "/api/loads?latitude=8.9&longitude=38.77&radius=100&pageSize=50";
type TRow = { id: number; shipperCompanyId: number | null; shipper: Record<string, unknown> | null };
const boardRow = async (who: TClient, loadId: number) => {
  const res = await who.get(BOARD);
  expect(res.status).toBe(200);
  return (res.json as TRow[]).find((l) => l.id === loadId)!;
};
const postLoad = async (who: TClient, over: Record<string, unknown> = {}) => {
  const res = await who.post("/api/loads", loadInput(over));
  expect(res.status).toBe(201);
  return res.json.id as number;
};

/** A shipper company (an owner who posted one load alone before founding it, and a staff member). */
const shipperCompany = async () => {
  const owner = await newUser("shipper");
  const before = await postLoad(owner.c, { title: "Before the company" });
  const created = await owner.c.post("/api/companies", { kind: "shipper", name: "Awash Cement PLC", country: "ET" });
  expect(created.status).toBe(201);
  const companyId = created.json.company.id as number;
  const staff = await join(owner.c, companyId, "staff", "shipper");
  return { owner, staff, companyId, before };
};

describe("a load shows who it was posted for", () => {
  test("a staff member's load shows the company with its profile's figures; a load posted alone the person", async () => {
    const { owner, staff, companyId, before } = await shipperCompany();
    const driver = await newUser("driver");
    const a = await postLoad(staff.c, { title: "Cement for Adama" });
    const b = await postLoad(owner.c, { title: "Cement for Hawassa" });
    // One of the company's loads completed and rated by its driver (5), one rated 4 still open; the owner's earlier
    // load, posted alone, rated 1: the company's figures leave it out.
    await t.db
      .update(loads)
      .set({ status: "completed", assignedDriverId: driver.id, completedAt: Date.now() })
      .where(eq(loads.id, b));
    await t.db.insert(ratings).values([
      { loadId: b, raterId: driver.id, rateeId: owner.id, score: 5, createdAt: Date.now() },
      { loadId: before, raterId: driver.id, rateeId: owner.id, score: 1, createdAt: Date.now() },
    ]);

    const profile = await driver.c.get(`/api/companies/${companyId}`);
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({ loadsPosted: 2, trips: 1, rating: 5, ratings: 1, paysInHours: null });

    const row = await boardRow(driver.c, a);
    expect(row.shipperCompanyId).toBe(companyId);
    expect(row.shipper).toEqual({
      kind: "company",
      name: "Awash Cement PLC",
      companyId,
      rating: profile.json.rating,
      ratings: profile.json.ratings,
      loadsPosted: profile.json.loadsPosted,
      completed: profile.json.trips,
      verified: profile.json.verified,
      paysInHours: profile.json.paysInHours,
    });
    // The load page shows the same; no member is named.
    const page = await driver.c.get(`/api/loads/${a}`);
    expect(page.status).toBe(200);
    expect(page.json.shipper).toEqual(row.shipper);
    expect(JSON.stringify(page.json.shipper)).not.toContain(staff.email);

    // The owner's load from before the company was posted alone: it shows the person, with the account's figures.
    const alone = await boardRow(driver.c, before);
    expect(alone.shipperCompanyId).toBeNull();
    expect(alone.shipper).toMatchObject({ kind: "person", companyId: null, loadsPosted: 2 });
    expect(alone.shipper!.name).not.toBe("Awash Cement PLC");
    // A shipper in no company: the person.
    const loner = await newUser("shipper");
    const own = await postLoad(loner.c);
    expect((await boardRow(driver.c, own)).shipper).toMatchObject({
      kind: "person",
      companyId: null,
      loadsPosted: 1,
      completed: 0,
      rating: null,
    });
  });

  test("a kept board row gives way to a rating or a completion on one of the company's loads", async () => {
    const { owner, staff, companyId } = await shipperCompany();
    const driver = await newUser("driver");
    const shown = await postLoad(staff.c);
    const done = await postLoad(owner.c);
    const first = (await boardRow(driver.c, shown)).shipper;
    expect(first).toMatchObject({ kind: "company", companyId, loadsPosted: 2, completed: 0, rating: null });
    // Read again unchanged: the same answer from what is kept.
    expect((await boardRow(driver.c, shown)).shipper).toEqual(first);

    // Another process completes the load (only the status changes): the next read counts it.
    await t.db
      .update(loads)
      .set({ status: "completed", assignedDriverId: driver.id, completedAt: Date.now() })
      .where(eq(loads.id, done));
    expect((await boardRow(driver.c, shown)).shipper).toMatchObject({ completed: 1, rating: null, ratings: 0 });
    // A rating written straight to its table (no account's sums touched): the next read shows it.
    await t.db
      .insert(ratings)
      .values({ loadId: done, raterId: driver.id, rateeId: owner.id, score: 4, createdAt: Date.now() });
    expect((await boardRow(driver.c, shown)).shipper).toMatchObject({ completed: 1, rating: 4, ratings: 1 });
    // Renamed: the next read names it so.
    await t.rows("UPDATE companies SET name = ? WHERE id = ?", "Awash Cement Share Company", companyId);
    expect((await boardRow(driver.c, shown)).shipper).toMatchObject({ name: "Awash Cement Share Company" });
  });
});

const HOUR = 60 * 60 * 1000;
/** A load of `poster`'s, delivered at `deliveredAt` and its money (paid by `payer`) released `hours` later. */
const paidLoad = async (
  poster: TClient | number,
  payer: number,
  driverId: number,
  hours: number,
  deliveredAt: number,
) => {
  const loadId = typeof poster === "number" ? poster : await postLoad(poster);
  await t.db
    .update(loads)
    .set({ status: "completed", assignedDriverId: driverId, deliveredAt, completedAt: deliveredAt + hours * HOUR })
    .where(eq(loads.id, loadId));
  const [p] = await t.db
    .insert(freightPayments)
    .values({
      loadId,
      shipperId: payer,
      driverId,
      provider: "stripe",
      providerRef: `cs_test_${loadId}`,
      state: "released",
      currency: "USD",
      agreedMinor: 100_000,
      feeMinor: 3_000,
      createdAt: deliveredAt - 48 * HOUR,
      updatedAt: deliveredAt + hours * HOUR,
    })
    .returning();
  await t.db.insert(freightPaymentEvents).values([
    { paymentId: p!.id, state: "funded", createdAt: deliveredAt - 48 * HOUR },
    { paymentId: p!.id, state: "released", createdAt: deliveredAt + hours * HOUR },
  ]);
};

describe("a company's pay speed", () => {
  test("is over the company's loads' payments, whichever member posted and paid; the person's stays their own", async () => {
    const { owner, staff, companyId, before } = await shipperCompany();
    const driver = await newUser("driver");
    const now = Date.now();
    // The owner's load from before the company (paid in 100 hours) is theirs alone; the company's three are paid in
    // 10 (the owner's), 20 and 30 hours (the staff member's).
    await paidLoad(before, owner.id, driver.id, 100, now - 500 * HOUR);
    await paidLoad(owner.c, owner.id, driver.id, 10, now - 400 * HOUR);
    await paidLoad(staff.c, staff.id, driver.id, 20, now - 300 * HOUR);
    const open = await postLoad(staff.c);
    expect((await boardRow(driver.c, open)).shipper).toMatchObject({ kind: "company", paysInHours: null });
    await paidLoad(staff.c, staff.id, driver.id, 30, now - 200 * HOUR);
    const row = await boardRow(driver.c, open);
    expect(row.shipper).toMatchObject({ kind: "company", companyId, paysInHours: 20, completed: 3, loadsPosted: 4 });
    const profile = await driver.c.get(`/api/companies/${companyId}`);
    expect(profile.json).toMatchObject({ paysInHours: 20, trips: 3, loadsPosted: 4 });
    // The owner's load posted alone shows the owner (to its driver, on the load's page): every load they posted and
    // their own payments, two so far (100 and 10 hours): too few for a pay speed.
    const alone = await driver.c.get(`/api/loads/${before}`);
    expect(alone.status).toBe(200);
    expect(alone.json.shipper).toMatchObject({ kind: "person", loadsPosted: 2, completed: 2, paysInHours: null });
  });
});

describe("a bid shows who it was made for", () => {
  test("a dispatcher's bid shows the carrier company with its profile's figures; a driver's own bid the driver", async () => {
    const shipper = await newUser("shipper");
    const loadId = await postLoad(shipper.c);
    const owner = await newUser("driver");
    const created = await owner.c.post("/api/companies", {
      kind: "carrier",
      name: "Rift Valley Haulage",
      country: "ET",
    });
    expect(created.status).toBe(201);
    const companyId = created.json.company.id as number;
    const dispatcher = await join(owner.c, companyId, "dispatcher", "driver");
    const loner = await newUser("driver");
    // The company's history: a trip of an earlier load, completed, its driver rated 3.
    const earlier = await postLoad(shipper.c);
    await t.db
      .update(loads)
      .set({ status: "completed", assignedDriverId: owner.id, carrierCompanyId: companyId, completedAt: Date.now() })
      .where(eq(loads.id, earlier));
    await t.db
      .insert(ratings)
      .values({ loadId: earlier, raterId: shipper.id, rateeId: owner.id, score: 3, createdAt: Date.now() });

    expect((await dispatcher.c.post(`/api/loads/${loadId}/bids`, { amount: 900 })).status).toBe(201);
    expect((await loner.c.post(`/api/loads/${loadId}/bids`, { amount: 950 })).status).toBe(201);
    const bids = await shipper.c.get(`/api/loads/${loadId}/bids`);
    expect(bids.status).toBe(200);
    const profile = (await shipper.c.get(`/api/companies/${companyId}`)).json;
    expect(profile).toMatchObject({ trips: 1, rating: 3, ratings: 1 });
    const byDriver = (id: number) => bids.json.find((b: { driverId: number }) => b.driverId === id).carrier;
    expect(byDriver(dispatcher.id)).toEqual({
      kind: "company",
      companyId,
      companyName: "Rift Valley Haulage",
      verified: profile.verified,
      rating: profile.rating,
      ratings: profile.ratings,
      trips: profile.trips,
    });
    expect(byDriver(loner.id)).toEqual({
      kind: "person",
      companyId: null,
      companyName: null,
      verified: null,
      rating: null,
      ratings: 0,
      trips: 0,
    });
    // Another shipper sees none of it.
    const other = await newUser("shipper");
    expect((await other.c.get(`/api/loads/${loadId}/bids`)).status).toBe(404);
  });
});

describe("the rate confirmation of a shipper company's load", () => {
  test("two members accept it: one acceptance for the side, one event, one notification", async () => {
    const { owner, staff } = await shipperCompany();
    const loadId = await postLoad(staff.c, { budgetAmount: 1000 });
    const driver = await newUser("driver");
    const bid = await driver.c.post(`/api/loads/${loadId}/bids`, { amount: 900 });
    expect(bid.status).toBe(201);
    expect((await owner.c.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
    const path = `/api/loads/${loadId}/rate-confirmation/accept`;
    const events = () =>
      t.db
        .select()
        .from(tripEvents)
        .where(and(eq(tripEvents.loadId, loadId), eq(tripEvents.kind, "rate_confirmation_accepted")));
    const told = async () => (await t.db.select().from(notifications).where(eq(notifications.loadId, loadId))).length;

    const first = await staff.c.post(path);
    expect(first.status).toBe(200);
    expect(first.json.accepted.shipper).toMatchObject({ accountId: staff.id });
    expect(first.json.accepted.driver).toBeNull();
    const notified = await told();
    // The owner accepts too: the same answer, nothing written, nobody told again.
    const second = await owner.c.post(path);
    expect(second.status).toBe(200);
    expect(second.json.accepted).toEqual(first.json.accepted);
    expect(await events()).toHaveLength(1);
    expect(await told()).toBe(notified);
    // The driver's side is its own: a second event.
    const driverSide = await driver.c.post(path);
    expect(driverSide.status).toBe(200);
    expect(driverSide.json.accepted.shipper).toEqual(first.json.accepted.shipper);
    expect(driverSide.json.accepted.driver).toMatchObject({ accountId: driver.id });
    expect(await events()).toHaveLength(2);
    // Everyone of the side reads the same state.
    expect((await owner.c.get(`/api/loads/${loadId}/rate-confirmation`)).json.accepted).toEqual(
      driverSide.json.accepted,
    );
  });
});
