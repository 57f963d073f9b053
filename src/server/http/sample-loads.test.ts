// The landing page's "Try it" load: near the visitor (their language's or device's country) before the newest
// anywhere, on both engines.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countrySpellings } from "../../shared/countries";
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

  test("Ethiopia written in English, as its code, in Amharic, in Afaan Oromo or in capitals all come first for ET", async () => {
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    // The European load is posted between the Ethiopian ones and last: it is the newest overall.
    const spellings = ["Ethiopia", "ET", "ኢትዮጵያ", "Itoophiyaa", " ETHIOPIA "];
    for (const [i, pickupCountry] of spellings.entries()) {
      expect((await shipper.post("/api/loads", loadInput({ title: `ET ${i}`, pickupCountry }))).status).toBe(201);
      if (i === 2)
        expect((await shipper.post("/api/loads", loadInput({ title: "Steel", ...EUROPE }))).status).toBe(201);
    }
    // A spelling no table knows: the pickup's coordinates (Addis Ababa) say Ethiopia through the gazetteer.
    expect(
      (await shipper.post("/api/loads", loadInput({ title: "Abyssinia", pickupCountry: "Abyssinia" }))).status,
    ).toBe(201);
    expect(await sample({ limit: 10, region: "ET" })).toEqual([
      "Abyssinia",
      "ET 4",
      "ET 3",
      "ET 2",
      "ET 1",
      "ET 0",
      "Steel",
    ]);
    expect(await sample({ limit: 1, region: "NL" })).toEqual(["Steel"]);
    const stored = await t.rows<{ title: string; code: string | null }>(
      "SELECT title, pickup_country_code AS code FROM loads ORDER BY id",
    );
    expect(stored.map((r) => r.code)).toEqual(["ET", "ET", "ET", "NL", "ET", "ET", "ET"]);
  });

  test("the migration fills the code of loads written before it, from every spelling the app knows", async () => {
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    for (const [title, pickupCountry] of [
      ["a", "Ethiopia"],
      ["b", "ኢትዮጵያ"],
      ["c", "Itoophiyaa"],
      ["d", "et"],
      ["e", "Kenya"],
      ["f", "USA"],
      ["g", "Narnia"],
    ])
      expect((await shipper.post("/api/loads", loadInput({ title, pickupCountry }))).status).toBe(201);
    // As the rows were before the migration: no code.
    await t.rows("UPDATE loads SET pickup_country_code = NULL");
    const dir = t.engine === "pg" ? "db/pg/migrations" : "db/migrations";
    const file = readdirSync(dir).find((f) => f.endsWith("_pickup_country_code.sql"));
    const sql = readFileSync(join(dir, file!), "utf8");
    const backfill = sql.split("--> statement-breakpoint").find((s) => s.includes("UPDATE loads"));
    await t.rows(backfill!);
    const stored = await t.rows<{ title: string; code: string | null }>(
      "SELECT title, pickup_country_code AS code FROM loads ORDER BY title",
    );
    expect(stored.map((r) => r.code)).toEqual(["ET", "ET", "ET", "ET", "KE", "US", null]);
    // The migration's list is the app's spelling table (it was generated from it): every spelling, the same code.
    const listed = new Map(
      [...backfill!.matchAll(/\('((?:[^']|'')*)', '([A-Z]{2})'\)/g)].map((m) => [m[1]!.replace(/''/g, "'"), m[2]]),
    );
    for (const [spelling, code] of countrySpellings())
      expect([spelling, listed.get(spelling)]).toEqual([spelling, code]);
  });

  test("a region that is not a two-letter country code is a 400 naming the field", async () => {
    for (const region of ["ETH", "E", "1T"]) {
      const res = await createClient(t).get(query("platform.sampleLoads", { limit: 6, region }));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain('"region"');
    }
  });
});
