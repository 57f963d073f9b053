import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import {
  freightPaymentEvents,
  freightPayments,
  loads,
  operators,
  ratings,
  users,
  verifications,
} from "../../../db/tables";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let operator: TClient;
let anon: TClient;
let shipperUser: { id: number; email: string };
let driverUser: { id: number; email: string };

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const HOUR = 60 * 60 * 1000;

const uploadPdf = async (who: TClient, kind: string) => {
  const form = new FormData();
  form.set("kind", kind);
  form.set("file", new File([PDF], `${kind}.pdf`, { type: "application/pdf" }));
  const res = await t.app.handle(
    new Request("http://localhost/api/verification/files", {
      method: "POST",
      headers: { Cookie: who.cookie!, "X-Forwarded-For": "10.0.0.1" },
      body: form,
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

/** An Ethiopian submission (trade licence, TIN, insurance) approved by the operator. */
const verify = async (who: TClient) => {
  const sent = await who.post("/api/verification", {
    country: "ET",
    tradeLicenceNumber: "AA/14/1234/2016",
    tin: "0012345678",
    insuranceExpiresOn: "2099-03-01",
    fileIds: [await uploadPdf(who, "trade_licence"), await uploadPdf(who, "insurance")],
  });
  expect(sent.status).toBe(201);
  expect((await operator.post(`/api/verification/submissions/${sent.json.id}/approve`)).status).toBe(200);
  return sent.json.id as number;
};

const postLoad = async (who: TClient = shipper, over: Record<string, unknown> = {}) => {
  const res = await who.post("/api/loads", loadInput(over));
  expect(res.status).toBe(201);
  return res.json.id as number;
};

const boardRow = async (loadId: number) => {
  const res = await driver.get("/api/loads?latitude=8.9&longitude=38.77&radius=100&pageSize=50");
  expect(res.status).toBe(200);
  return (res.json as { id: number; shipper: Record<string, unknown> | null }[]).find((l) => l.id === loadId)!;
};

/** A delivered and paid load of the shipper's: delivered at `deliveredAt`, its money released `hours` later. */
const paidLoad = async (shipperId: number, hours: number, deliveredAt: number) => {
  const loadId = await postLoad();
  await t.db
    .update(loads)
    .set({ status: "completed", assignedDriverId: driverUser.id, deliveredAt, completedAt: deliveredAt + hours * HOUR })
    .where(eq(loads.id, loadId));
  const [p] = await t.db
    .insert(freightPayments)
    .values({
      loadId,
      shipperId,
      driverId: driverUser.id,
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

beforeEach(async () => {
  t = await createTestApp();
  [shipper, driver, operator, anon] = [1, 2, 3, 4].map(() => createClient(t));
  shipperUser = await registerUser(shipper, "shipper", { firstName: "Hana", lastName: "Alemu" });
  driverUser = await registerUser(driver, "driver");
  const op = await registerUser(operator, "shipper");
  await t.db.insert(operators).values({ userId: op.id, grantedAt: Date.now() });
});

describe("the shipper's trust signals on the board and the load", () => {
  test("an unverified shipper: short name, no rating yet, loads posted, no badge, no pay speed", async () => {
    await postLoad();
    const loadId = await postLoad();
    const row = await boardRow(loadId);
    expect(row.shipper).toEqual({
      kind: "person",
      name: "Hana A.",
      companyId: null,
      rating: null,
      ratings: 0,
      loadsPosted: 2,
      completed: 0,
      verified: null,
      paysInHours: null,
    });
    const detail = await driver.get(`/api/loads/${loadId}`);
    expect(detail.status).toBe(200);
    expect(detail.json.shipper).toEqual(row.shipper);
  });

  test("approved verification shows the badge with what was verified, on the board and the load; nothing private leaks", async () => {
    const loadId = await postLoad();
    await t.db
      .update(users)
      .set({ ratingSum: 9, totalRatings: 2, phone: "+251911223344" })
      .where(eq(users.id, shipperUser.id));
    await verify(shipper);
    const row = await boardRow(loadId);
    expect(row.shipper).toMatchObject({
      name: "Hana A.",
      rating: 4.5,
      ratings: 2,
      verified: {
        tradeLicence: true,
        tin: true,
        mc: false,
        dot: false,
        driversLicence: false,
        insuranceUntil: "2099-03-01",
        insuranceLapsed: false,
      },
    });
    const detail = await driver.get(`/api/loads/${loadId}`);
    expect(detail.json.shipper).toEqual(row.shipper);
    for (const text of [JSON.stringify(row.shipper), JSON.stringify(detail.json.shipper)]) {
      expect(text).not.toContain(shipperUser.email);
      expect(text).not.toContain("+251911223344");
      expect(text).not.toContain("Alemu");
      expect(text).not.toContain("AA/14/1234/2016");
      expect(text).not.toContain("0012345678");
    }
  });

  test("a lapsed insurance takes the badge away", async () => {
    const loadId = await postLoad();
    const id = await verify(shipper);
    expect((await boardRow(loadId)).shipper!.verified).not.toBeNull();
    await t.db.update(verifications).set({ insuranceExpiresOn: "2020-01-31" }).where(eq(verifications.id, id));
    expect((await boardRow(loadId)).shipper!.verified).toBeNull();
    expect((await driver.get(`/api/loads/${loadId}`)).json.shipper.verified).toBeNull();
  });

  test("pay speed: the median hours from delivery to release over the newest 20 paid loads, only from 3 on", async () => {
    const loadId = await postLoad();
    const base = Date.now() - 400 * HOUR;
    await paidLoad(shipperUser.id, 24, base);
    await paidLoad(shipperUser.id, 72, base + HOUR);
    expect((await boardRow(loadId)).shipper!.paysInHours).toBeNull();
    await paidLoad(shipperUser.id, 48, base + 2 * HOUR);
    expect((await boardRow(loadId)).shipper!.paysInHours).toBe(48);
    // 20 newer loads paid in 6 hours push the three older ones out of the window.
    for (let i = 0; i < 20; i++) await paidLoad(shipperUser.id, 6, base + (10 + i) * HOUR);
    const row = await boardRow(loadId);
    expect(row.shipper!.paysInHours).toBe(6);
    expect(row.shipper!.loadsPosted).toBe(24);
    expect((await driver.get(`/api/loads/${loadId}`)).json.shipper.paysInHours).toBe(6);
  });

  test("a shipper who belongs to a company posts as it, with the company's badge (its owner's)", async () => {
    const company = await shipper.post("/api/companies", { kind: "shipper", name: "Abay Cement PLC", country: "ET" });
    expect(company.status).toBe(201);
    const companyId = company.json.company.id as number;
    await verify(shipper);
    const loadId = await postLoad();
    const row = await boardRow(loadId);
    expect(row.shipper).toMatchObject({ name: "Abay Cement PLC", companyId, verified: { tradeLicence: true } });
  });

  test("signed out: the shared preview names no shipper, the load itself is 401", async () => {
    const loadId = await postLoad();
    const preview = await anon.get(`/api/loads/${loadId}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.json.shipper).toBeUndefined();
    expect((await anon.get(`/api/loads/${loadId}`)).status).toBe(401);
  });
});

describe("the carrier's trust signals on the shipper's bids", () => {
  test("a driver's own bid: no company, the badge once verified, rating and trips", async () => {
    const loadId = await postLoad();
    await t.db.update(users).set({ ratingSum: 14, totalRatings: 3, totalTrips: 7 }).where(eq(users.id, driverUser.id));
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).status).toBe(201);
    let bids = await shipper.get(`/api/loads/${loadId}/bids`);
    expect(bids.status).toBe(200);
    expect(bids.json[0].carrier).toEqual({
      kind: "person",
      companyId: null,
      companyName: null,
      verified: null,
      rating: 4.7,
      ratings: 3,
      trips: 7,
    });
    const licence = await uploadPdf(driver, "drivers_licence");
    const sent = await driver.post("/api/verification", { country: "US", dotNumber: "1234567", fileIds: [licence] });
    expect(sent.status).toBe(201);
    await operator.post(`/api/verification/submissions/${sent.json.id}/approve`);
    bids = await shipper.get(`/api/loads/${loadId}/bids`);
    expect(bids.json[0].carrier.verified).toMatchObject({ dot: true, driversLicence: true, tin: false });
    expect(JSON.stringify(bids.json[0].carrier)).not.toContain(driverUser.email);
  });

  test("a fleet owner's bid carries the company's name and id", async () => {
    const loadId = await postLoad();
    const company = await driver.post("/api/companies", {
      kind: "carrier",
      name: "Rift Valley Haulage",
      country: "ET",
    });
    expect(company.status).toBe(201);
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).status).toBe(201);
    const bids = await shipper.get(`/api/loads/${loadId}/bids`);
    expect(bids.json[0].carrier).toMatchObject({
      kind: "company",
      companyId: company.json.company.id,
      companyName: "Rift Valley Haulage",
      verified: null,
    });
  });

  test("another shipper's load's bids are 404; signed out 401; a bad id 400 naming it", async () => {
    const loadId = await postLoad();
    const other = createClient(t);
    await registerUser(other, "shipper");
    expect((await other.get(`/api/loads/${loadId}/bids`)).status).toBe(404);
    expect((await anon.get(`/api/loads/${loadId}/bids`)).status).toBe(401);
    const bad = await shipper.get("/api/loads/abc/bids");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("id must be a positive integer");
  });
});

describe("GET /api/companies/:id", () => {
  test("anyone sees a company's public profile: name, kind, badge, figures credited to the company (its own trips and ratings), since", async () => {
    const company = await driver.post("/api/companies", {
      kind: "carrier",
      name: "Rift Valley Haulage",
      country: "ET",
    });
    const id = company.json.company.id as number;
    // The company's history is its own trips (loads awarded to it) and the ratings its drivers got on them; the
    // member's own figures (here, from trips of their own before or outside the company) are not the company's.
    await t.db.update(users).set({ ratingSum: 9, totalRatings: 3, totalTrips: 9 }).where(eq(users.id, driverUser.id));
    const trips = [await postLoad(), await postLoad(), await postLoad(), await postLoad()];
    for (const [i, loadId] of trips.entries())
      await t.db
        .update(loads)
        .set({
          status: i < 3 ? "completed" : "in_transit",
          assignedDriverId: driverUser.id,
          carrierCompanyId: id,
          completedAt: i < 3 ? Date.now() : null,
        })
        .where(eq(loads.id, loadId));
    const own = await postLoad();
    await t.db
      .update(loads)
      .set({ status: "completed", assignedDriverId: driverUser.id, completedAt: Date.now() })
      .where(eq(loads.id, own));
    await t.db.insert(ratings).values([
      { loadId: trips[0]!, raterId: shipperUser.id, rateeId: driverUser.id, score: 3, createdAt: Date.now() },
      { loadId: trips[1]!, raterId: shipperUser.id, rateeId: driverUser.id, score: 5, createdAt: Date.now() },
      // The driver's rating of the shipper is not the company's, nor a rating on a trip of the driver's own.
      { loadId: trips[1]!, raterId: driverUser.id, rateeId: shipperUser.id, score: 1, createdAt: Date.now() },
      { loadId: own, raterId: shipperUser.id, rateeId: driverUser.id, score: 1, createdAt: Date.now() },
    ]);
    let res = await anon.get(`/api/companies/${id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id,
      name: "Rift Valley Haulage",
      kind: "carrier",
      country: "ET",
      verified: null,
      rating: 4,
      ratings: 2,
      trips: 3,
      loadsPosted: 0,
      paysInHours: null,
      members: 1,
      since: expect.any(String),
    });
    await verify(driver);
    res = await shipper.get(`/api/companies/${id}`);
    expect(res.json.verified).toMatchObject({ tradeLicence: true, tin: true });
    expect(JSON.stringify(res.json)).not.toContain(driverUser.email);
    expect(JSON.stringify(res.json)).not.toContain("Dawit");
  });

  test("a shipper company counts its members' loads", async () => {
    const company = await shipper.post("/api/companies", { kind: "shipper", name: "Abay Cement PLC", country: "ET" });
    await postLoad();
    await postLoad();
    const res = await driver.get(`/api/companies/${company.json.company.id}`);
    expect(res.json).toMatchObject({ kind: "shipper", loadsPosted: 2, members: 1 });
  });

  test("a shipper company is credited its loads and the ratings its side got on them, not earlier ones", async () => {
    const before = await postLoad();
    const company = await shipper.post("/api/companies", { kind: "shipper", name: "Abay Cement PLC", country: "ET" });
    const id = company.json.company.id as number;
    const [a, b] = [await postLoad(), await postLoad()];
    for (const loadId of [before, a, b])
      await t.db
        .update(loads)
        .set({ status: "completed", assignedDriverId: driverUser.id, completedAt: Date.now() })
        .where(eq(loads.id, loadId));
    await t.db.insert(ratings).values([
      { loadId: a, raterId: driverUser.id, rateeId: shipperUser.id, score: 5, createdAt: Date.now() },
      { loadId: b, raterId: driverUser.id, rateeId: shipperUser.id, score: 4, createdAt: Date.now() },
      // Before the company: the shipper's own.
      { loadId: before, raterId: driverUser.id, rateeId: shipperUser.id, score: 1, createdAt: Date.now() },
    ]);
    const res = await anon.get(`/api/companies/${id}`);
    expect(res.json).toMatchObject({ kind: "shipper", loadsPosted: 2, trips: 2, rating: 4.5, ratings: 2 });
  });

  test("an unknown company is 404; an id that is not a number is 400 naming it", async () => {
    const res = await anon.get("/api/companies/999999");
    expect(res.status).toBe(404);
    expect(res.json.message).toBe("Company not found");
    const bad = await anon.get("/api/companies/abc");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("id must be a positive integer");
  });
});

// The signals are kept per database handle while the database's trust version holds (modules/trust/trust.ts). Every
// write below is one another process could have made: the version is bumped by the database's triggers, never by this
// process, so some go through the routes and some straight to the tables.
describe("kept signals give way to the next write", () => {
  test("a new load by the shipper, a payment landing, a rating, a badge: each shows on the next board read", async () => {
    const loadId = await postLoad();
    const first = await boardRow(loadId);
    expect(first.shipper).toMatchObject({
      loadsPosted: 1,
      rating: null,
      ratings: 0,
      paysInHours: null,
      verified: null,
    });
    // Read again unchanged: the same answer from what is kept.
    expect((await boardRow(loadId)).shipper).toEqual(first.shipper);

    await postLoad();
    expect((await boardRow(loadId)).shipper).toMatchObject({ loadsPosted: 2 });

    const now = Date.now();
    await paidLoad(shipperUser.id, 10, now - 200 * HOUR);
    await paidLoad(shipperUser.id, 20, now - 100 * HOUR);
    expect((await boardRow(loadId)).shipper).toMatchObject({ loadsPosted: 4, paysInHours: null });
    // The third payment released: pay speed shows (median of 10, 20, 30).
    await paidLoad(shipperUser.id, 30, now - 50 * HOUR);
    expect((await boardRow(loadId)).shipper).toMatchObject({ loadsPosted: 5, paysInHours: 20 });

    // A rating as a trip's completion writes it.
    await t.db
      .update(users)
      .set({ ratingSum: sql`${users.ratingSum} + 4`, totalRatings: sql`${users.totalRatings} + 1` })
      .where(eq(users.id, shipperUser.id));
    expect((await boardRow(loadId)).shipper).toMatchObject({ rating: 4, ratings: 1 });

    await verify(shipper);
    const verified = (await boardRow(loadId)).shipper!;
    expect(verified.verified).toMatchObject({ tradeLicence: true, tin: true, insuranceLapsed: false });
    const detail = await driver.get(`/api/loads/${loadId}`);
    expect(detail.json.shipper).toEqual(verified);
  });

  test("a payment's release landing on a load that was already paid moves the pay speed", async () => {
    const now = Date.now();
    for (const h of [10, 20, 30]) await paidLoad(shipperUser.id, h, now - 300 * HOUR + h * HOUR);
    const loadId = await postLoad();
    expect((await boardRow(loadId)).shipper).toMatchObject({ paysInHours: 20 });
    // Only an event changes: the first release (10 hours after delivery) is moved 100 hours later, to 110.
    const [first] = await t.db
      .select({ id: freightPaymentEvents.id, createdAt: freightPaymentEvents.createdAt })
      .from(freightPaymentEvents)
      .where(eq(freightPaymentEvents.state, "released"))
      .orderBy(asc(freightPaymentEvents.createdAt))
      .limit(1);
    await t.db
      .update(freightPaymentEvents)
      .set({ createdAt: first!.createdAt + 100 * HOUR })
      .where(eq(freightPaymentEvents.id, first!.id));
    expect((await boardRow(loadId)).shipper).toMatchObject({ paysInHours: 30 });
  });
});
