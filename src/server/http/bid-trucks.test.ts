// A bid that names one of the bidder's trucks, over REST: the shipper sees the truck on the bid and, after the award,
// on the load; only the bidder's own trucks may be named; the usual refusals (another account, signed out, bad input).
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
let other: TClient;
let anon: TClient;
let loadId: number;

const DAY = 24 * 60 * 60 * 1000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const truckInput = (over: Record<string, unknown> = {}) => ({
  originName: "Adama, Ethiopia",
  originLatitude: 8.54,
  originLongitude: 39.27,
  availableFrom: day(1),
  availableTo: day(5),
  equipmentType: "flatbed",
  capacityLbs: 40000,
  lengthFt: 40,
  plate: "3-A12345",
  ...over,
});
const postTruck = async (c: TClient, over: Record<string, unknown> = {}) => {
  const res = await c.post("/api/trucks", truckInput(over));
  expect(res.status).toBe(201);
  return res.json.id as number;
};

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  otherShipper = createClient(t, "10.0.0.2");
  driver = createClient(t, "10.0.0.3");
  other = createClient(t, "10.0.0.4");
  anon = createClient(t, "10.0.0.5");
  await registerUser(shipper, "shipper");
  await registerUser(otherShipper, "shipper", { firstName: "Sara" });
  await registerUser(driver, "driver");
  await registerUser(other, "driver", { firstName: "Kebede", lastName: "Tola" });
  loadId = (await shipper.post("/api/loads", loadInput())).json.id;
});

const shipperBids = async () => (await shipper.get(`/api/loads/${loadId}/bids`)).json as Record<string, unknown>[];

describe("a bid's truck", () => {
  test("the shipper sees the truck a bid names, and the awarded load shows it to both parties only", async () => {
    const truckId = await postTruck(driver);
    const placed = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId });
    expect(placed.status).toBe(201);
    const truck = { id: truckId, equipmentType: "flatbed", capacityLbs: 40000, plate: "3-A12345" };
    expect(placed.json.bid.truck).toEqual(truck);
    expect((await shipperBids())[0]!.truck).toEqual(truck);
    const mine = (await driver.get("/api/bids/driver")).json as { loadId: number; truck: unknown }[];
    expect(mine.find((b) => b.loadId === loadId)!.truck).toEqual(truck);

    // A changed bid offers what it names now: without a truck, none; then another of the driver's trucks.
    const without = await driver.post(`/api/loads/${loadId}/bids`, { amount: 880 });
    expect(without.json).toMatchObject({ replaced: true, bid: { truck: null } });
    expect((await shipperBids())[0]!.truck).toBeNull();
    const reefer = await postTruck(driver, { equipmentType: "refrigerated", capacityLbs: 30000, plate: undefined });
    const bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 870, truckId: reefer })).json.bid.id;
    const reeferTruck = { id: reefer, equipmentType: "refrigerated", capacityLbs: 30000, plate: null };
    expect((await shipperBids())[0]!.truck).toEqual(reeferTruck);

    // Before the award the load names no truck, even to its shipper.
    expect((await shipper.get(`/api/loads/${loadId}`)).json.truck).toBeNull();
    expect((await shipper.post(`/api/bids/${bidId}/accept`)).status).toBe(200);
    expect((await shipper.get(`/api/loads/${loadId}`)).json.truck).toEqual(reeferTruck);
    expect((await driver.get(`/api/loads/${loadId}`)).json.truck).toEqual(reeferTruck);
    expect((await other.get(`/api/loads/${loadId}`)).status).toBe(404);

    // The award keeps showing what was offered after the driver deletes the truck's post.
    expect((await driver.del(`/api/trucks/${reefer}`)).status).toBe(200);
    expect((await shipper.get(`/api/loads/${loadId}`)).json.truck).toEqual({ ...reeferTruck, id: null });
    expect((await shipperBids())[0]!.truck).toEqual({ ...reeferTruck, id: null });
  });

  test("a fleet owner's bid carries the company and the owner's truck", async () => {
    const company = await driver.post("/api/companies", {
      kind: "carrier",
      name: "Rift Valley Haulage",
      country: "ET",
    });
    expect(company.status).toBe(201);
    const truckId = await postTruck(driver);
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId })).status).toBe(201);
    expect((await shipperBids())[0]).toMatchObject({
      carrier: { companyName: "Rift Valley Haulage" },
      truck: { id: truckId, equipmentType: "flatbed", capacityLbs: 40000, plate: "3-A12345" },
    });
  });

  test("another driver's truck or a missing one is a 400 naming truckId, and no bid is written", async () => {
    const theirs = await postTruck(other);
    for (const truckId of [theirs, theirs + 1000]) {
      const res = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId });
      expect(res.status).toBe(400);
      expect(res.json.messageId).toBe("error.bid.truckNotYours");
      expect(res.json.issues).toEqual([{ path: "truckId", message: "truckId must be one of your trucks" }]);
    }
    // A pending bid is not changed by a refused one.
    const mine = await postTruck(driver);
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId: mine })).status).toBe(201);
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 800, truckId: theirs })).status).toBe(400);
    expect(await shipperBids()).toMatchObject([{ amount: 900, truck: { id: mine } }]);
  });

  test("a truckId that is not a positive whole number is a 400 naming it", async () => {
    for (const truckId of ["abc", 1.5, -3]) {
      const res = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId });
      expect(res.status).toBe(400);
      expect((res.json.issues as { path: string }[]).map((i) => i.path)).toEqual(["truckId"]);
    }
    expect(await shipperBids()).toEqual([]);
  });

  test("another shipper's load is 404 and signed out is 401", async () => {
    const truckId = await postTruck(driver);
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId })).status).toBe(201);
    expect((await otherShipper.get(`/api/loads/${loadId}/bids`)).status).toBe(404);
    const missing = await driver.post(`/api/loads/${loadId + 1000}/bids`, { amount: 900, truckId });
    expect(missing.status).toBe(404);
    expect((await anon.post(`/api/loads/${loadId}/bids`, { amount: 900, truckId })).status).toBe(401);
    expect((await anon.get(`/api/loads/${loadId}/bids`)).status).toBe(401);
  });
});
