import { afterAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sampleNumber } from "../../../../emulators/carriers/numbers";
import { emulatorEnv, startCarrierEmulators } from "../../../../emulators/carriers/server";
import type { TAddress, TPackage } from "../../../shared/schemas/shipping";
import type { AppError } from "../../errors";
import { carriersFromEnv } from "./registry";
import { fedexStatus, upsStatus, uspsStatus } from "./status";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startCarrierEmulators();
afterAll(() => emu.stop());

const envFor = (over: Record<string, string> = {}) => ({
  ...emulatorEnv(emu.urls),
  CARRIER_TIMEOUT_MS: "2000",
  ...over,
});

const from: TAddress = {
  street1: "1 Infinite Loop",
  city: "Cupertino",
  state: "CA",
  postalCode: "95014",
  countryCode: "US",
};
const to: TAddress = { street1: "350 5th Ave", city: "New York", state: "NY", postalCode: "10118", countryCode: "US" };
const box = (over: Partial<TPackage> = {}): TPackage => ({
  weight: 10,
  weightUnit: "LBS",
  dimensionUnit: "IN",
  length: 12,
  width: 10,
  height: 8,
  ...over,
});

beforeEach(() => {
  for (const c of Object.values(emu.controls)) {
    c.delayMs = 0;
    c.tokenRequests = 0;
    c.apiRequests = 0;
  }
  emu.controls.fedex.tokenLifetimeSeconds = 3599;
  // Each test is a new hour for the USPS app's quota.
  emu.controls.usps.hourlyQuota = 60;
  emu.controls.usps.quotaRefusals = 0;
  emu.controls.usps.resetQuota();
});

const caught = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a failure");
};

describe("rates from each carrier, normalized", () => {
  test.each(["fedex", "ups", "usps"] as const)("%s answers with rate options in the common shape", async (id) => {
    const carrier = carriersFromEnv(envFor()).get(id)!;
    const rates = await carrier.rates({ shipper: from, recipient: to, packages: [box()] });
    expect(rates.length).toBeGreaterThanOrEqual(3);
    for (const r of rates) {
      expect(r.carrier).toBe(id);
      expect(r.serviceName.length).toBeGreaterThan(3);
      expect(r.totalCost).toBeGreaterThan(0);
      expect(r.currency).toBe("USD");
      expect(r.deliveryDays).toBeGreaterThanOrEqual(1);
      expect(typeof r.guaranteedDelivery).toBe("boolean");
    }
    expect(rates.some((r) => r.guaranteedDelivery)).toBe(true);
    expect(rates.some((r) => !r.guaranteedDelivery)).toBe(true);
  });

  test("kilograms and centimetres are converted as each API wants: the same parcel costs the same", async () => {
    // A heavy small box (its weight, not its size, is billed): FedEx takes whole-number dimensions, so a box billed by
    // size could round differently in centimetres, as it does at FedEx itself.
    const registry = carriersFromEnv(envFor());
    for (const id of ["fedex", "ups", "usps"] as const) {
      const imperial = await registry.get(id)!.rates({
        shipper: from,
        recipient: to,
        packages: [box({ weight: 22.0462, length: 10, width: 10, height: 10 })],
      });
      const metric = await registry.get(id)!.rates({
        shipper: from,
        recipient: to,
        packages: [box({ weight: 10, weightUnit: "KG", length: 25.4, width: 25.4, height: 25.4, dimensionUnit: "CM" })],
      });
      expect(metric.map((r) => r.totalCost)).toEqual(imperial.map((r) => r.totalCost));
    }
  });

  test("several packages cost more than one, and farther costs more than nearer", async () => {
    const ups = carriersFromEnv(envFor()).get("ups")!;
    const one = await ups.rates({ shipper: from, recipient: to, packages: [box()] });
    const two = await ups.rates({ shipper: from, recipient: to, packages: [box(), box({ weight: 25 })] });
    const near = await ups.rates({
      shipper: from,
      recipient: { ...to, postalCode: "95050", state: "CA", city: "Santa Clara" },
      packages: [box()],
    });
    const ground = (rs: typeof one) => rs.find((r) => r.serviceCode === "03")!.totalCost;
    expect(ground(two)).toBeGreaterThan(ground(one));
    expect(ground(near)).toBeLessThan(ground(one));
  });

  test("USPS says clearly that it rates US domestic shipments only", async () => {
    const usps = carriersFromEnv(envFor()).get("usps")!;
    const err = await caught(
      usps.rates({ shipper: from, recipient: { ...to, countryCode: "CA", postalCode: "M5V3L9" }, packages: [box()] }),
    );
    expect(err.message).toBe("USPS: rates are offered here for shipments within the United States only");
  });
});

describe("OAuth tokens", () => {
  test("one token serves many requests until shortly before it expires", async () => {
    const fedex = carriersFromEnv(envFor()).get("fedex")!;
    await Promise.all([1, 2, 3].map(() => fedex.rates({ shipper: from, recipient: to, packages: [box()] })));
    await fedex.rates({ shipper: from, recipient: to, packages: [box()] });
    expect(emu.controls.fedex.tokenRequests).toBe(1);
    expect(emu.controls.fedex.apiRequests).toBe(4);
  });

  test("an expired token is renewed before use", async () => {
    emu.controls.ups.tokenLifetimeSeconds = 1;
    const ups = carriersFromEnv(envFor()).get("ups")!;
    await ups.rates({ shipper: from, recipient: to, packages: [box()] });
    await Bun.sleep(1100);
    await ups.rates({ shipper: from, recipient: to, packages: [box()] });
    expect(emu.controls.ups.tokenRequests).toBe(2);
    emu.controls.ups.tokenLifetimeSeconds = 14399;
  });

  test("a token the carrier stops honouring (401) is replaced and the call retried once", async () => {
    const usps = carriersFromEnv(envFor()).get("usps")!;
    await usps.rates({ shipper: from, recipient: to, packages: [box()] });
    emu.controls.usps.expireTokens();
    const rates = await usps.rates({ shipper: from, recipient: to, packages: [box()] });
    expect(rates.length).toBeGreaterThan(0);
    expect(emu.controls.usps.tokenRequests).toBe(2);
  });

  test("wrong credentials are reported as the carrier refusing them", async () => {
    const fedex = carriersFromEnv(envFor({ FEDEX_CLIENT_SECRET: "wrong" })).get("fedex")!;
    const err = await caught(fedex.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toContain("FedEx refused our credentials");
  });
});

describe("failures become clear errors naming the carrier", () => {
  test("429 with a short Retry-After is waited out once", async () => {
    const ups = carriersFromEnv(envFor()).get("ups")!;
    await ups.rates({ shipper: from, recipient: to, packages: [box()] });
    emu.controls.ups.failNext({
      status: 429,
      body: { response: { errors: [{ code: "429", message: "Rate Limit Exceeded" }] } },
      headers: { "Retry-After": "1" },
    });
    const started = performance.now();
    expect((await ups.rates({ shipper: from, recipient: to, packages: [box()] })).length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeGreaterThan(900);
  });

  test("429 with a long Retry-After is reported with the wait", async () => {
    const usps = carriersFromEnv(envFor()).get("usps")!;
    await usps.rates({ shipper: from, recipient: to, packages: [box()] });
    emu.controls.usps.failNext({
      status: 429,
      body: { error: { code: "429", message: "Too Many Requests" } },
      headers: { "Retry-After": "30" },
    });
    const err = await caught(usps.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.message).toBe("USPS is limiting requests: 1 package size was not priced. Try again in 1 min.");
    expect(err.retryAfterSeconds).toBe(30);
    // Everything else waits for it too, without asking USPS.
    const calls = emu.controls.usps.apiRequests;
    const track = await caught(usps.track(sampleNumber("usps", "delivered")));
    expect(track.message).toMatch(/^USPS is limiting requests; try again in (29|30) s$/);
    expect(emu.controls.usps.apiRequests).toBe(calls);
  });

  test("a carrier that does not answer in time is a timeout", async () => {
    const ups = carriersFromEnv(envFor({ CARRIER_TIMEOUT_MS: "150" })).get("ups")!;
    emu.controls.ups.delayMs = 400;
    const err = await caught(ups.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.code).toBe("GATEWAY_TIMEOUT");
    expect(err.message).toBe("UPS did not answer within 0.2 s");
  });

  test("an answer that is not JSON is reported as such", async () => {
    const fedex = carriersFromEnv(envFor()).get("fedex")!;
    await fedex.rates({ shipper: from, recipient: to, packages: [box()] });
    emu.controls.fedex.failNext({ status: 200, raw: "<html>Service Unavailable</html>" });
    const err = await caught(fedex.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.message).toBe("FedEx sent an answer that is not valid JSON (HTTP 200)");
  });

  test("valid JSON of the wrong shape is reported, not half-read", async () => {
    const ups = carriersFromEnv(envFor()).get("ups")!;
    await ups.rates({ shipper: from, recipient: to, packages: [box()] });
    emu.controls.ups.failNext({
      status: 200,
      body: { RateResponse: { RatedShipment: [{ Service: { Code: 3 }, TotalCharges: { MonetaryValue: "12.00" } }] } },
    });
    const err = await caught(ups.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toBe("UPS sent an answer we could not read (at RateResponse.RatedShipment)");
  });

  test("the carrier's own error message is passed on", async () => {
    const fedex = carriersFromEnv(envFor()).get("fedex")!;
    await fedex.rates({ shipper: from, recipient: to, packages: [box()] });
    emu.controls.fedex.failNext({
      status: 400,
      body: {
        errors: [
          {
            code: "ACCOUNT.NUMBER.MISMATCH",
            message:
              "When payment Type is SENDER, ShippingChargesPayment Payor AccountNumber should match the shipper account number.",
          },
        ],
      },
    });
    const err = await caught(fedex.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.message).toContain("FedEx: When payment Type is SENDER");
  });

  test("an unreachable carrier is reported, not thrown as a crash", async () => {
    const fedex = carriersFromEnv(envFor({ FEDEX_BASE_URL: "http://127.0.0.1:9" })).get("fedex")!;
    const err = await caught(fedex.rates({ shipper: from, recipient: to, packages: [box()] }));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toStartWith("FedEx could not be reached");
  });
});

describe("tracking", () => {
  const registry = () => carriersFromEnv(envFor());
  test.each(["fedex", "ups", "usps"] as const)(
    "%s: delivered, in transit, exception and pending histories, newest first",
    async (id) => {
      const carrier = registry().get(id)!;
      for (const scenario of ["delivered", "in_transit", "exception", "pending"] as const) {
        const t = await carrier.track(sampleNumber(id, scenario));
        expect(t.status).toBe(scenario);
        expect(t.carrier).toBe(id);
        expect(t.events.length).toBeGreaterThan(0);
        const times = t.events.map((e) => Date.parse(e.date));
        expect(times).toEqual([...times].sort((a, b) => b - a));
        if (scenario === "delivered") {
          expect(t.actualDelivery).not.toBeNull();
          expect(t.events[0].status).toBe("delivered");
        } else {
          expect(t.actualDelivery).toBeNull();
        }
        if (scenario !== "pending") expect(t.currentLocation?.city).toBeTruthy();
      }
    },
  );

  test.each(["fedex", "ups", "usps"] as const)(
    "%s: a number the carrier does not know is NOT_FOUND, even inside a 200",
    async (id) => {
      const err = await caught(registry().get(id)!.track(sampleNumber(id, "not_found")));
      expect(err.code).toBe("NOT_FOUND");
      expect(err.message).toStartWith(`${registry().nameOf(id)}: `);
    },
  );
});

describe("status mapping", () => {
  test("FedEx codes", () => {
    expect(["DL", "OD", "IT", "PU", "OC", "DE", "SE", "RS", "ZZ"].map(fedexStatus)).toEqual([
      "delivered",
      "in_transit",
      "in_transit",
      "in_transit",
      "pending",
      "exception",
      "exception",
      "exception",
      "unknown",
    ]);
  });
  test("UPS activity types, then codes", () => {
    expect([
      upsStatus("D"),
      upsStatus("I"),
      upsStatus("M"),
      upsStatus("X"),
      upsStatus("MV"),
      upsStatus("NA"),
      upsStatus(undefined, "F4"),
      upsStatus("NA", "OT"),
    ]).toEqual(["delivered", "in_transit", "pending", "exception", "exception", "unknown", "delivered", "in_transit"]);
  });
  test("USPS categories, event codes and words", () => {
    expect([
      uspsStatus("Delivered"),
      uspsStatus("Pre-Shipment"),
      uspsStatus("Alert"),
      uspsStatus(null, "OF"),
      uspsStatus(null, "GX"),
      uspsStatus(null, "01"),
      uspsStatus(null, null, "Arrived at USPS Regional Facility"),
      uspsStatus(null, "ZZ", "Something new"),
    ]).toEqual(["delivered", "pending", "exception", "in_transit", "pending", "delivered", "in_transit", "unknown"]);
  });
});

test("carrier states: production hosts are Active, sandboxes and emulators Sandbox, no credentials Not configured, saying why", () => {
  const states = carriersFromEnv({
    FEDEX_CLIENT_ID: "a",
    FEDEX_CLIENT_SECRET: "b",
    FEDEX_ACCOUNT_NUMBER: "510087000",
    UPS_BASE_URL: "https://wwwcie.ups.com",
    UPS_CLIENT_ID: "c",
    UPS_CLIENT_SECRET: "d",
    USPS_CLIENT_ID: "e",
  }).states();
  expect(states).toEqual([
    { id: "fedex", name: "FedEx", state: "active", reason: null },
    { id: "ups", name: "UPS", state: "sandbox", reason: null },
    {
      id: "usps",
      name: "USPS",
      state: "not_configured",
      reason: "USPS is not configured: set USPS_CLIENT_SECRET in the server's environment",
    },
  ]);
  expect(
    carriersFromEnv(envFor())
      .states()
      .map((s) => s.state),
  ).toEqual(["sandbox", "sandbox", "sandbox"]);
});

describe("FedEx's account number", () => {
  test("without FEDEX_ACCOUNT_NUMBER FedEx is not configured and says why, in the reader's language; nothing is sent", async () => {
    const noAccount: Record<string, string> = { ...envFor() };
    delete noAccount.FEDEX_ACCOUNT_NUMBER;
    const registry = carriersFromEnv(noAccount);
    expect(registry.get("fedex")).toBeNull();
    const [fedex] = registry.states();
    expect(fedex).toEqual({
      id: "fedex",
      name: "FedEx",
      state: "not_configured",
      reason:
        "FedEx is not configured: FedEx quotes rates for a FedEx account, so set FEDEX_ACCOUNT_NUMBER to the account number",
    });
    expect(registry.states("am")[0]!.reason).toContain("FEDEX_ACCOUNT_NUMBER");
    expect(registry.states("am")[0]!.reason).not.toBe(fedex!.reason);
    expect(emu.controls.fedex.apiRequests).toBe(0);
  });

  test("the quote names the account; FedEx refuses one without accountNumber.value, or for another account, in its own words", async () => {
    const fedex = carriersFromEnv(envFor()).get("fedex")!;
    expect((await fedex.rates({ shipper: from, recipient: to, packages: [box()] })).length).toBeGreaterThan(0);
    const token = (await (
      await fetch(`${emu.urls.fedex}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "fedex-sandbox-key",
          client_secret: "fedex-sandbox-secret",
        }),
      })
    ).json()) as { access_token: string };
    const quote = (accountNumber: unknown) =>
      fetch(`${emu.urls.fedex}/rate/v1/rates/quotes`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token.access_token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          accountNumber,
          requestedShipment: {
            shipper: { address: { postalCode: "95014", countryCode: "US" } },
            recipient: { address: { postalCode: "10118", countryCode: "US" } },
            pickupType: "DROPOFF_AT_FEDEX_LOCATION",
            requestedPackageLineItems: [{ weight: { units: "LB", value: 10 } }],
          },
        }),
      });
    const empty = await quote({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      transactionId: expect.any(String),
      errors: [{ code: "INVALID.INPUT.EXCEPTION", message: expect.stringContaining("accountNumber") }],
    });
    const other = await quote({ value: "999999999" });
    expect(((await other.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("ACCOUNT.NUMBER.MISMATCH");
  });
});

describe("USPS quota", () => {
  const sizes = (n: number) => Array.from({ length: n }, (_, i) => box({ weight: 2 + i }));

  test("identical packages are asked about once; each still counts in the total", async () => {
    const usps = carriersFromEnv(envFor()).get("usps")!;
    const one = await usps.rates({ shipper: from, recipient: to, packages: [box()] });
    const before = emu.controls.usps.apiRequests;
    const rates = await usps.rates({
      shipper: from,
      recipient: to,
      packages: [box(), box(), box({ weight: 3 }), box()],
    });
    expect(emu.controls.usps.apiRequests - before).toBe(2);
    const light = await usps.rates({ shipper: from, recipient: to, packages: [box({ weight: 3 })] });
    for (const r of rates) {
      const a = one.find((x) => x.serviceCode === r.serviceCode)!.totalCost;
      const b = light.find((x) => x.serviceCode === r.serviceCode)!.totalCost;
      expect(r.totalCost).toBeCloseTo(3 * a + b, 2);
    }
  });

  test("a quote that would not fit in USPS_HOURLY_QUOTA is answered limited, try again in N min, and nothing is sent", async () => {
    const usps = carriersFromEnv(envFor({ USPS_HOURLY_QUOTA: "5" })).get("usps")!;
    // 1 token request + 3 sizes: 4 of the 5.
    expect((await usps.rates({ shipper: from, recipient: to, packages: sizes(3) })).length).toBeGreaterThan(0);
    const sent = emu.controls.usps.tokenRequests + emu.controls.usps.apiRequests;
    expect(sent).toBe(4);
    const err = await caught(usps.rates({ shipper: from, recipient: to, packages: sizes(2) }));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.message).toMatch(
      /^USPS is limiting requests: 2 package sizes were not priced\. Try again in (59|60) min\.$/,
    );
    expect(err.retryAfterSeconds).toBeGreaterThan(3500);
    expect(emu.controls.usps.tokenRequests + emu.controls.usps.apiRequests).toBe(sent);
    // One more size still fits.
    expect((await usps.rates({ shipper: from, recipient: to, packages: [box()] })).length).toBeGreaterThan(0);
  });

  test("when USPS itself says the quota is spent (another process used it), the rest waits for its Retry-After: no 429 storm", async () => {
    emu.controls.usps.hourlyQuota = 3;
    const usps = carriersFromEnv(envFor()).get("usps")!;
    // Token + 2 sizes fit; the third size gets USPS's 429; the others are not sent.
    const err = await caught(usps.rates({ shipper: from, recipient: to, packages: sizes(6) }));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.message).toMatch(
      /^USPS is limiting requests: \d package sizes were not priced\. Try again in (59|60) min\.$/,
    );
    expect(emu.controls.usps.quotaRefusals).toBeLessThanOrEqual(3);
    const refusals = emu.controls.usps.quotaRefusals;
    // Asked again: answered at once from the Retry-After, USPS is not called.
    const again = await caught(usps.rates({ shipper: from, recipient: to, packages: sizes(1) }));
    expect(again.message).toMatch(/^USPS is limiting requests: 1 package size was not priced/);
    expect(emu.controls.usps.quotaRefusals).toBe(refusals);
  });
});
