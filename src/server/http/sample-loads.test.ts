// The landing page's "Try it" load: near the visitor (their language's or device's country) before the newest
// anywhere, on both engines.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const query = (path: string, input: unknown) => `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
const sample = async (input: unknown) => {
  const res = await createClient(t).get(query("platform.sampleLoads", input));
  expect(res.status).toBe(200);
  return (res.json.result.data as { title: string; pickupCountry: string }[]).map((l) => l.title);
};

const EUROPE = {
  pickupAddress: "Waalhaven",
  pickupCity: "Rotterdam",
  pickupState: "South Holland",
  pickupCountry: "Netherlands",
  pickupLatitude: 51.9,
  pickupLongitude: 4.45,
  deliveryAddress: "Waltershof",
  deliveryCity: "Hamburg",
  deliveryState: "Hamburg",
  deliveryCountry: "Germany",
  deliveryLatitude: 53.53,
  deliveryLongitude: 9.93,
  budgetCurrency: "EUR",
};

describe("platform.sampleLoads near the visitor", () => {
  test("a visitor from Ethiopia gets the Ethiopian load first, though a European one is newer; others the newest", async () => {
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    for (const over of [
      { title: "Teff to Adama" },
      { title: "Coffee, written ET", pickupCountry: "ET" },
      { title: "Steel coils", ...EUROPE },
    ])
      expect((await shipper.post("/api/loads", loadInput(over))).status).toBe(201);

    // Ethiopian loads first (the country as a name or as its code), newest first; then the rest, newest first.
    expect(await sample({ limit: 6, region: "ET" })).toEqual(["Coffee, written ET", "Teff to Adama", "Steel coils"]);
    expect(await sample({ limit: 1, region: "et" })).toEqual(["Coffee, written ET"]);
    expect(await sample({ limit: 1, region: "NL" })).toEqual(["Steel coils"]);
    // No region, or one with no load: the newest anywhere.
    expect(await sample({ limit: 6 })).toEqual(["Steel coils", "Coffee, written ET", "Teff to Adama"]);
    expect(await sample({ limit: 2, region: "BR" })).toEqual(["Steel coils", "Coffee, written ET"]);
    // A country written another common way counts too.
    expect((await shipper.post("/api/loads", loadInput({ title: "Corn", pickupCountry: "USA" }))).status).toBe(201);
    expect((await shipper.post("/api/loads", loadInput({ title: "Barley" }))).status).toBe(201);
    expect(await sample({ limit: 1, region: "US" })).toEqual(["Corn"]);
  });

  test("a region that is not a two-letter country code is a 400 naming the field", async () => {
    for (const region of ["ETH", "E", "1T"]) {
      const res = await createClient(t).get(query("platform.sampleLoads", { limit: 6, region }));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain('"region"');
    }
  });
});
