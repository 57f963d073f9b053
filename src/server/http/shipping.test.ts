import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sampleNumber } from "../../../emulators/carriers/numbers";
import { emulatorEnv, startCarrierEmulators } from "../../../emulators/carriers/server";
import { carriersFromEnv } from "../integrations/carriers/registry";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

const emu = startCarrierEmulators();
afterAll(() => emu.stop());

const env = (only?: ("fedex" | "ups" | "usps")[]) => {
  const all = emulatorEnv(emu.urls);
  return Object.fromEntries(
    Object.entries(all).filter(([k]) => !only || only.some((c) => k.startsWith(c.toUpperCase()))),
  );
};

let t: TTestApp;
let user: ReturnType<typeof createClient>;
const setup = async (only?: ("fedex" | "ups" | "usps")[]) => {
  t = await createTestApp({}, carriersFromEnv(env(only)));
  user = createClient(t);
  await registerUser(user, "shipper");
};
beforeEach(() => setup());

const body = (over: Record<string, unknown> = {}) => ({
  shipper: { name: "Hana", street1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014" },
  recipient: { name: "Sam", street1: "350 5th Ave", city: "New York", state: "NY", postalCode: "10118" },
  packages: [{ weight: 5 }],
  ...over,
});

describe("POST /api/shipping/rates", () => {
  test("asks every carrier and answers their rates together, cheapest first", async () => {
    const res = await user.post("/api/shipping/rates", body());
    expect(res.status).toBe(200);
    expect(res.json.errors).toEqual([]);
    const carriers = new Set(res.json.rates.map((r: { carrier: string }) => r.carrier));
    expect(carriers).toEqual(new Set(["fedex", "ups", "usps"]));
    const costs = res.json.rates.map((r: { totalCost: number }) => r.totalCost);
    expect(costs).toEqual([...costs].sort((a: number, b: number) => a - b));
    expect(res.json.rates[0]).toMatchObject({ currency: "USD" });
    expect(Object.keys(res.json.rates[0]).sort()).toEqual(
      [
        "carrier",
        "currency",
        "deliveryDays",
        "guaranteedDelivery",
        "serviceCode",
        "serviceName",
        "totalCost",
        "transitTime",
      ].sort(),
    );
  });

  test("a chosen carrier only", async () => {
    const res = await user.post("/api/shipping/rates", body({ carrier: "ups" }));
    expect(res.json.rates.every((r: { carrier: string }) => r.carrier === "ups")).toBe(true);
  });

  test("one carrier failing does not hide the others", async () => {
    emu.controls.fedex.failNext({
      status: 503,
      body: { errors: [{ code: "SERVICE.UNAVAILABLE.ERROR", message: "The service is currently unavailable." }] },
    });
    // The first call fetches a token; let it through, then fail the rate request itself.
    emu.controls.fedex.failNext();
    const res = await user.post("/api/shipping/rates", body());
    expect(res.status).toBe(200);
    expect(res.json.errors).toEqual([{ carrier: "fedex", message: expect.stringContaining("FedEx") }]);
    expect(res.json.rates.length).toBeGreaterThan(0);
    expect(res.json.rates.some((r: { carrier: string }) => r.carrier === "fedex")).toBe(false);
  });

  test("an unconfigured carrier is reported as such", async () => {
    await setup(["ups"]);
    const res = await user.post("/api/shipping/rates", body());
    expect(res.status).toBe(200);
    expect(res.json.errors).toEqual([
      { carrier: "fedex", message: "FedEx is not configured" },
      { carrier: "usps", message: "USPS is not configured" },
    ]);
    expect(res.json.rates.length).toBeGreaterThan(0);
    const carriers = await user.get("/api/shipping/carriers");
    expect(carriers.json.map((c: { state: string }) => c.state)).toEqual([
      "not_configured",
      "sandbox",
      "not_configured",
    ]);
    expect(carriers.json[2].reason).toBe(
      "USPS is not configured: set USPS_CLIENT_ID, USPS_CLIENT_SECRET in the server's environment",
    );
    expect(carriers.json[1].reason).toBeNull();
  });

  test("FedEx without its account number is not configured and says why, in the caller's language; its quotes are not asked", async () => {
    const rest = env();
    delete rest.FEDEX_ACCOUNT_NUMBER;
    t = await createTestApp({}, carriersFromEnv(rest));
    user = createClient(t);
    await registerUser(user, "shipper");
    const before = emu.controls.fedex.apiRequests;
    const carriers = await user.get("/api/shipping/carriers");
    expect(carriers.json[0]).toEqual({
      id: "fedex",
      name: "FedEx",
      state: "not_configured",
      reason:
        "FedEx is not configured: FedEx quotes rates for a FedEx account, so set FEDEX_ACCOUNT_NUMBER to the account number",
    });
    expect((await user.put("/api/user/language", { language: "am" })).status).toBe(200);
    const am = await user.get("/api/shipping/carriers");
    expect(am.json[0].reason).toContain("FEDEX_ACCOUNT_NUMBER");
    expect(am.json[0].reason).not.toBe(carriers.json[0].reason);
    await user.put("/api/user/language", { language: "en" });
    const rates = await user.post("/api/shipping/rates", body());
    expect(rates.json.errors).toEqual([{ carrier: "fedex", message: "FedEx is not configured" }]);
    expect(rates.json.rates.length).toBeGreaterThan(0);
    expect(emu.controls.fedex.apiRequests).toBe(before);
  });

  test("the product's validation holds on the server, with its messages", async () => {
    const shipper = await user.post(
      "/api/shipping/rates",
      body({ shipper: { street1: "", city: "Cupertino", state: "CA", postalCode: "95014" } }),
    );
    expect(shipper.status).toBe(400);
    expect(shipper.json.message).toBe("Please fill in all shipper address fields.");
    const recipient = await user.post(
      "/api/shipping/rates",
      body({ recipient: { street1: "x", city: "", state: "NY", postalCode: "10118" } }),
    );
    expect(recipient.json.message).toBe("Please fill in all recipient address fields.");
    const state = await user.post(
      "/api/shipping/rates",
      body({ recipient: { street1: "x", city: "y", state: "NYC", postalCode: "10118" } }),
    );
    expect(state.json.issues).toContainEqual({
      path: "recipient.state",
      message: "state must be at most 2 characters",
    });
    const weight = await user.post("/api/shipping/rates", body({ packages: [{ weight: 0.05 }] }));
    expect(weight.json.issues).toContainEqual({ path: "packages.0.weight", message: "weight must be at least 0.1" });
    expect((await user.post("/api/shipping/rates", body({ packages: [] }))).json.message).toBe(
      "Add at least one package",
    );
    expect((await user.post("/api/shipping/rates", body({ carrier: "dhl" }))).json.message).toBe(
      "carrier must be fedex, ups or usps",
    );
    expect((await createClient(t).post("/api/shipping/rates", body())).status).toBe(401);
  });
});

describe("GET /api/shipping/track", () => {
  test.each(["fedex", "ups", "usps"] as const)("detects %s from the number and answers the tracking", async (id) => {
    const n = sampleNumber(id, "delivered");
    const res = await user.get(`/api/shipping/track/${n}`);
    expect(res.status).toBe(200);
    expect(res.json.tracking).toMatchObject({ carrier: id, trackingNumber: n, status: "delivered" });
    expect(res.json.tracking.events.length).toBeGreaterThan(3);
  });

  test("a named carrier is asked directly", async () => {
    const n = sampleNumber("ups", "exception");
    const res = await user.get(`/api/shipping/track/ups/${n}`);
    expect(res.json.tracking).toMatchObject({ carrier: "ups", status: "exception" });
    expect((await user.get(`/api/shipping/track/dhl/${n}`)).status).toBe(400);
  });

  test("a number that fits no format is a clear 400; an unknown one a 404 naming the carrier", async () => {
    const bad = await user.get("/api/shipping/track/12345");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("This tracking number does not match a FedEx, UPS or USPS format");
    const missing = await user.get(`/api/shipping/track/${sampleNumber("usps", "not_found")}`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toStartWith("USPS: ");
  });
});

describe("saved shipments", () => {
  test("Select This Service keeps the quote with its addresses, for its owner only", async () => {
    const quote = (await user.post("/api/shipping/rates", body({ carrier: "usps" }))).json.rates[0];
    const b = body();
    const saved = await user.post("/api/shipping/shipments", {
      quote,
      shipper: b.shipper,
      recipient: b.recipient,
      packages: b.packages,
    });
    expect(saved.status).toBe(201);
    expect(saved.json).toMatchObject({
      carrier: "usps",
      serviceName: quote.serviceName,
      totalCost: quote.totalCost,
      recipient: { city: "New York" },
    });
    expect((await user.get("/api/shipping/shipments")).json).toHaveLength(1);
    const other = createClient(t);
    await registerUser(other, "driver");
    expect((await other.get("/api/shipping/shipments")).json).toEqual([]);
    expect((await other.del(`/api/shipping/shipments/${saved.json.id}`)).status).toBe(404);
    expect((await user.del(`/api/shipping/shipments/${saved.json.id}`)).status).toBe(200);
    expect((await user.get("/api/shipping/shipments")).json).toEqual([]);
  });
});
