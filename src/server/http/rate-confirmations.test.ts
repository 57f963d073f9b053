import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { embeddedFonts, pdfText } from "../pdf/testing";
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

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  driver2 = createClient(t);
  anon = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper", { firstName: "Hana", lastName: "Tesfaye" })).id,
    otherShipper: (await registerUser(otherShipper, "shipper")).id,
    driver: (await registerUser(driver, "driver", { firstName: "Dawit", lastName: "Bekele" })).id,
    driver2: (await registerUser(driver2, "driver")).id,
  };
  loadId = (
    await shipper.post(
      "/api/loads",
      loadInput({
        title: "Cement for Adama",
        budgetAmount: 60000,
        budgetCurrency: "ETB",
        pickupDate: "2026-12-01T09:00:00.000Z",
        deliveryDate: "2026-12-02T15:00:00.000Z",
      }),
    )
  ).json.id;
  bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 55000, currency: "ETB" })).json.bid.id;
});

const award = async () => expect((await shipper.post(`/api/bids/${bidId}/accept`)).status).toBe(200);
const path = () => `/api/loads/${loadId}/rate-confirmation`;

/** The PDF as bytes (the test client reads answers as text). */
const pdf = async (who: TClient, id: number | string = loadId, headers: Record<string, string> = {}) => {
  const res = await t.app.handle(
    new Request(`http://localhost/api/loads/${id}/rate-confirmation.pdf`, {
      headers: { ...(who.cookie ? { Cookie: who.cookie } : {}), "X-Forwarded-For": "10.0.0.1", ...headers },
    }),
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null;
  return { status: res.status, headers: res.headers, bytes, json };
};

describe("the rate confirmation", () => {
  test("after the award both parties see the agreed amount, each other, and nobody's acceptance yet", async () => {
    await award();
    for (const who of [shipper, driver]) {
      const res = await who.get(path());
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        loadId,
        status: "assigned",
        agreed: { amount: 55000, currency: "ETB" },
        shipper: { id: ids.shipper, role: "shipper", name: "Hana Tesfaye", completedTrips: 0 },
        driver: { id: ids.driver, role: "driver", name: "Dawit Bekele", rating: 0, completedTrips: 0 },
        accepted: { shipper: null, driver: null },
        pdfUrl: `/api/loads/${loadId}/rate-confirmation.pdf`,
      });
      expect(Date.parse(res.json.awardedAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect((await shipper.get(path())).json.you).toBe("shipper");
    expect((await driver.get(path())).json.you).toBe("driver");
  });

  test("each party accepts once: the time and account are on the timeline; accepting again changes nothing", async () => {
    await award();
    const first = await driver.post(`${path()}/accept`);
    expect(first.status).toBe(200);
    expect(first.json.accepted.driver.accountId).toBe(ids.driver);
    expect(first.json.accepted.shipper).toBeNull();
    const again = await driver.post(`${path()}/accept`);
    expect(again.status).toBe(200);
    expect(again.json.accepted.driver).toEqual(first.json.accepted.driver);
    const both = await shipper.post(`${path()}/accept`);
    expect(both.json.accepted.shipper.accountId).toBe(ids.shipper);
    expect(both.json.accepted.driver).toEqual(first.json.accepted.driver);
    const timeline = (await shipper.get(`/api/loads/${loadId}/timeline`)).json;
    expect(timeline.map((e: { kind: string }) => e.kind)).toEqual([
      "awarded",
      "rate_confirmation_accepted",
      "rate_confirmation_accepted",
    ]);
    expect(timeline[1]).toMatchObject({ actor: { id: ids.driver, name: "Dawit Bekele" }, detail: { role: "driver" } });
    expect(timeline[2]).toMatchObject({ actor: { id: ids.shipper }, detail: { role: "shipper" } });
    expect(timeline[1].at).toBe(first.json.accepted.driver.at);
  });

  test("the other party is told of an acceptance, once; nobody is told of their own", async () => {
    await award();
    type TNote = { title: string; body: string };
    const told = async (who: TClient) =>
      ((await who.get("/api/notifications")).json.items as TNote[]).filter(
        (n) => n.title === "Rate confirmation accepted",
      );
    await driver.post(`${path()}/accept`);
    await driver.post(`${path()}/accept`);
    expect(await told(shipper)).toEqual([
      expect.objectContaining({ body: "Dawit accepted the rate confirmation for Cement for Adama." }),
    ]);
    expect(await told(driver)).toEqual([]);
    await shipper.post(`${path()}/accept`);
    expect(await told(driver)).toEqual([
      expect.objectContaining({ body: "Hana accepted the rate confirmation for Cement for Adama." }),
    ]);
    expect(await told(shipper)).toHaveLength(1);
    expect(await told(otherShipper)).toEqual([]);
  });

  test("two accepts at once by the same party write one event", async () => {
    await award();
    const answers = await Promise.all([1, 2, 3].map(() => driver.post(`${path()}/accept`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const kinds = (await driver.get(`/api/loads/${loadId}/timeline`)).json.map((e: { kind: string }) => e.kind);
    expect(kinds.filter((k: string) => k === "rate_confirmation_accepted")).toHaveLength(1);
  });

  test("another account gets 404, a signed-out caller 401, a bad id 400 naming it", async () => {
    await award();
    for (const who of [otherShipper, driver2]) {
      expect((await who.get(path())).status).toBe(404);
      expect((await who.post(`${path()}/accept`)).status).toBe(404);
      expect((await pdf(who)).status).toBe(404);
    }
    expect((await anon.get(path())).status).toBe(401);
    expect((await anon.post(`${path()}/accept`)).status).toBe(401);
    expect((await pdf(anon)).status).toBe(401);
    for (const bad of [
      await shipper.get("/api/loads/abc/rate-confirmation"),
      await shipper.post("/api/loads/0/rate-confirmation/accept"),
      await pdf(shipper, "abc"),
    ]) {
      expect(bad.status).toBe(400);
      expect(bad.json.message).toContain("id");
    }
    // Nothing was accepted by the refused calls.
    expect((await shipper.get(path())).json.accepted).toEqual({ shipper: null, driver: null });
  });

  test("before the award: 409 for the shipper, 404 for a driver who only bid", async () => {
    const early = await shipper.get(path());
    expect(early.status).toBe(409);
    expect(early.json.message).toContain("not awarded");
    expect((await shipper.post(`${path()}/accept`)).status).toBe(409);
    expect((await pdf(shipper)).status).toBe(409);
    expect((await driver.get(path())).status).toBe(404);
    expect((await driver.post(`${path()}/accept`)).status).toBe(404);
    expect((await pdf(driver)).status).toBe(404);
    expect((await shipper.get(`/api/loads/${loadId}/timeline`)).json).toEqual([]);
  });

  test("a cancelled load's rate confirmation can no longer be accepted; one accepted before stays accepted", async () => {
    await award();
    expect((await driver.post(`${path()}/accept`)).status).toBe(200);
    expect((await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "Plant closed" })).status).toBe(200);
    const late = await shipper.post(`${path()}/accept`);
    expect(late.status).toBe(409);
    expect(late.json.message).toContain("cancelled");
    expect((await driver.post(`${path()}/accept`)).status).toBe(200);
    expect((await driver.get(path())).json.accepted.shipper).toBeNull();
  });

  test("the PDF: both parties, the load, the agreed amount and the acceptances, in English", async () => {
    await award();
    await driver.post(`${path()}/accept`);
    const res = await pdf(shipper);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain(`rate-confirmation-${loadId}.pdf`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = await pdfText(res.bytes);
    for (const piece of [
      "Rate confirmation",
      `Load #${loadId} · Cement for Adama`,
      "Hana Tesfaye",
      "Dawit Bekele",
      "Kality Customs Terminal, Addis Ababa, Ethiopia",
      "Adama Industrial Park, Adama, Ethiopia",
      "December 1, 2026",
      "December 2, 2026",
      "Flatbed",
      "40,000 lbs",
      "Br 55,000.00",
      "Terms",
      "Not accepted yet",
    ])
      expect(text).toContain(piece);
    expect(text).toMatch(/Driver: Dawit Bekele Accepted on /);
    // The bid named no truck: the PDF says nothing of one (no heading, no made-up type, plate or capacity).
    for (const absent of ["Truck type", "Plate number", "Capacity"]) expect(text).not.toContain(absent);
  });

  test("the PDF names the truck the accepted bid offered: its type, plate and capacity, in the reader's language", async () => {
    const truckId = (
      await driver.post("/api/trucks", {
        originName: "Adama, Ethiopia",
        originLatitude: 8.54,
        originLongitude: 39.27,
        availableFrom: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        availableTo: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
        equipmentType: "refrigerated",
        capacityLbs: 33000,
        lengthFt: 40,
        plate: "3-A12345",
      })
    ).json.id as number;
    // The driver's bid, changed to name the truck (the same bid: one per driver and load).
    const changed = await driver.post(`/api/loads/${loadId}/bids`, { amount: 54000, currency: "ETB", truckId });
    expect(changed.json.bid.id).toBe(bidId);
    await award();
    // The truck stays on the confirmation after the driver deletes its post: the bid kept a copy.
    expect((await driver.del(`/api/trucks/${truckId}`)).status).toBe(200);
    const en = await pdfText((await pdf(shipper)).bytes);
    expect(en).toMatch(/Truck Truck type Refrigerated Plate number 3-A12345 Capacity 33,000 lbs/);
    expect(en).toContain("Br 54,000.00");

    expect((await driver.put("/api/user/language", { language: "am" })).status).toBe(200);
    const am = await pdfText((await pdf(driver)).bytes);
    for (const piece of ["የጭነት መኪና", "የሰሌዳ ቁጥር", "3-A12345", "የመጫን አቅም"]) expect(am).toContain(piece);
    expect(am).not.toContain("Truck type");

    expect((await driver.put("/api/user/language", { language: "om" })).status).toBe(200);
    const om = await pdfText((await pdf(driver)).bytes);
    for (const piece of ["Konkolaataa fe'umsaa", "Lakkoofsa taargaa", "3-A12345", "Dandeettii fe'uu"])
      expect(om).toContain(piece);
    expect(om).not.toContain("Plate number");
  });

  test("a truck without a plate: the PDF shows its type and capacity and no plate row", async () => {
    const truckId = (
      await driver.post("/api/trucks", {
        originName: "Adama, Ethiopia",
        originLatitude: 8.54,
        originLongitude: 39.27,
        availableFrom: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        availableTo: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
        equipmentType: "flatbed",
        capacityLbs: 40000,
        lengthFt: 40,
      })
    ).json.id as number;
    // The driver's bid, changed to name the truck (the same bid: one per driver and load).
    const changed = await driver.post(`/api/loads/${loadId}/bids`, { amount: 54000, currency: "ETB", truckId });
    expect(changed.json.bid.id).toBe(bidId);
    await award();
    const en = await pdfText((await pdf(driver)).bytes);
    expect(en).toMatch(/Truck Truck type Flatbed Capacity 40,000 lbs/);
    expect(en).not.toContain("Plate number");
  });

  test("the PDF in Amharic with the Ethiopian calendar, in the reader's time zone, drawn with the Ethiopic font", async () => {
    await award();
    expect((await driver.put("/api/user/language", { language: "am" })).status).toBe(200);
    expect((await driver.put("/api/user/calendar", { calendar: "ethiopic", ethiopianTime: false })).status).toBe(200);
    const res = await pdf(driver, loadId, { Cookie: `${driver.cookie}; mytess_tz=Africa%2FAddis_Ababa` });
    expect(res.status).toBe(200);
    expect(embeddedFonts(res.bytes)).toContain("NotoSansEthiopic-Regular");
    const text = await pdfText(res.bytes);
    // 1 December 2026 is 22 Hidar 2019 in the Ethiopian calendar; birr is written ብር in Amharic.
    for (const piece of ["የዋጋ ማረጋገጫ", "22 ኅዳር 2019 ዓ.ም.", "23 ኅዳር 2019 ዓ.ም.", "ብር 55,000.00", "Dawit Bekele"])
      expect(text).toContain(piece);
    expect(text).not.toContain("Rate confirmation");
  });
});
