// Errors carry a message id and values, and every door answers in the caller's language with the same code: the
// account's language when signed in, else the web app's language cookie, else Accept-Language. REST keeps
// `{ message, code, issues? }` (plus `messageId`); tRPC keeps its shape, with `messageId` beside `code` in `data`.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { LANGUAGE_COOKIE } from "../../shared/constants";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const DAY = 86_400_000;
const loadInput = (extra: Record<string, unknown> = {}) => ({
  title: "Coffee",
  equipmentType: "dry_van",
  pickupAddress: "Warehouse 4",
  pickupCity: "Jimma",
  pickupCountry: "Ethiopia",
  pickupLatitude: 7.67,
  pickupLongitude: 36.83,
  deliveryAddress: "Port",
  deliveryCity: "Djibouti",
  deliveryCountry: "Djibouti",
  deliveryLatitude: 11.6,
  deliveryLongitude: 43.15,
  weight: 20000,
  budgetAmount: 3000,
  pickupDate: new Date(Date.now() + DAY).toISOString(),
  deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
  ...extra,
});

describe("the same failure in en, am and om, with the same code", () => {
  test("a bid on a missing load is a 404 in the account's language, through REST and tRPC", async () => {
    const driver = createClient(t);
    await registerUser(driver, "driver");
    const said = { en: "Load not found", am: "ጭነቱ አልተገኘም", om: "Fe'umsi hin argamne" };
    for (const [language, message] of Object.entries(said)) {
      expect((await driver.put("/api/user/language", { language })).status).toBe(200);
      // The browser asks for English; the account's language wins.
      const headers = { "Accept-Language": "en-US,en;q=0.9" };
      const rest = await driver.post("/api/loads/999999/bids", { amount: 500 }, headers);
      expect(rest.status).toBe(404);
      expect(rest.json).toEqual({ message, code: "NOT_FOUND", messageId: "error.load.notFound" });
      const rpc = await driver.post("/trpc/bids.place", { loadId: 999999, amount: 500 }, headers);
      expect(rpc.status).toBe(404);
      expect(rpc.json.error.message).toBe(message);
      expect(rpc.json.error.data).toMatchObject({
        code: "NOT_FOUND",
        httpStatus: 404,
        messageId: "error.load.notFound",
      });
    }
  });

  test("a wrong password, signed out: the language cookie first, else Accept-Language", async () => {
    const said = {
      en: "Invalid email or password",
      am: "የተሳሳተ ኢሜይል ወይም የይለፍ ቃል",
      om: "Imeeliin ykn jechi darbii dogoggora",
    };
    // An account per language and a client address per attempt, so the sign-in limits are not what answers.
    let ip = 10;
    for (const [language, message] of Object.entries(said)) {
      const me = await registerUser(createClient(t), "shipper");
      const wrong = { email: me.email, password: "not-the-password" };
      const byHeader = { "Accept-Language": `${language}-ET,${language};q=0.9,en;q=0.5` };
      const byCookie = { Cookie: `${LANGUAGE_COOKIE}=${language}`, "Accept-Language": "en" };
      for (const headers of [byHeader, byCookie]) {
        const rest = await createClient(t, `10.1.0.${ip++}`).post("/api/auth/login", wrong, headers);
        expect(rest.status).toBe(401);
        expect(rest.json).toEqual({ message, code: "UNAUTHORIZED", messageId: "error.auth.invalidCredentials" });
        const rpc = await createClient(t, `10.1.0.${ip++}`).post("/trpc/auth.login", wrong, headers);
        expect(rpc.status).toBe(401);
        expect(rpc.json.error.message).toBe(message);
        expect(rpc.json.error.data).toMatchObject({ code: "UNAUTHORIZED", messageId: "error.auth.invalidCredentials" });
      }
    }
    // Nothing to go on: English.
    const plain = await createClient(t, "10.1.0.99").post(
      "/api/auth/login",
      { email: "nobody@example.com", password: "not-the-password" },
      { "Accept-Language": "fr" },
    );
    expect(plain.json.message).toBe("Invalid email or password");
  });

  test("values are translated too: a bid's status named in the refusal", async () => {
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    const driver = createClient(t, "10.0.0.2");
    await registerUser(driver, "driver");
    const load = (await shipper.post("/api/loads", loadInput())).json;
    const bid = (await driver.post(`/api/loads/${load.id}/bids`, { amount: 2500 })).json.bid;
    expect((await shipper.post(`/api/bids/${bid.id}/accept`)).status).toBe(200);
    const said = {
      en: "This bid is accepted; only a pending bid can be rejected",
      am: "የዚህ ጨረታ ሁኔታ «ተቀባይነት አግኝቷል» ነው፤ ውድቅ ሊደረግ የሚችለው በመጠባበቅ ላይ ያለ ጨረታ ብቻ ነው",
      om: "Haalli caalbaasii kanaa “fudhatameera” dha; kan didamuu danda'u caalbaasii eegaa jiru qofa",
    };
    for (const [language, message] of Object.entries(said)) {
      await shipper.put("/api/user/language", { language });
      const rest = await shipper.post(`/api/bids/${bid.id}/reject`);
      expect(rest.status).toBe(409);
      expect(rest.json).toEqual({ message, code: "CONFLICT", messageId: "error.bid.notPendingToReject" });
      const rpc = await shipper.post("/trpc/bids.reject", { bidId: bid.id });
      expect(rpc.json.error.message).toBe(message);
      expect(rpc.json.error.data).toMatchObject({ code: "CONFLICT", httpStatus: 409 });
    }
  });

  test("an AppError's field issues are translated with its message", async () => {
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    const past = loadInput({ pickupDate: new Date(Date.now() - DAY).toISOString() });
    const said = {
      en: "pickupDate must not be in the past",
      am: "የመጫኛ ቀን (pickupDate) ያለፈ ቀን መሆን የለበትም",
      om: "Guyyaan fe'iinsaa (pickupDate) kan darbe ta'uu hin qabu",
    };
    for (const [language, message] of Object.entries(said)) {
      await shipper.put("/api/user/language", { language });
      const rest = await shipper.post("/api/loads", past);
      expect(rest.status).toBe(400);
      expect(rest.json).toEqual({
        message,
        code: "BAD_REQUEST",
        messageId: "error.load.pickupInPast",
        issues: [{ path: "pickupDate", message }],
      });
      const rpc = await shipper.post("/trpc/loads.create", past);
      expect(rpc.json.error.message).toBe(message);
      expect(rpc.json.error.data).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: "pickupDate", message }] });
    }
    expect((await t.rows("SELECT id FROM loads")).length).toBe(0);
  });

  test("a partial answer's reasons are in the caller's language: carriers that could not quote", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    await c.put("/api/user/language", { language: "am" });
    const res = await c.post("/api/shipping/rates", {
      shipper: { name: "Hana", street1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014" },
      recipient: { name: "Sam", street1: "350 5th Ave", city: "New York", state: "NY", postalCode: "10118" },
      packages: [{ weight: 5 }],
    });
    expect(res.status).toBe(200);
    expect(res.json.errors).toEqual([
      { carrier: "fedex", message: "FedEx አልተዋቀረም" },
      { carrier: "ups", message: "UPS አልተዋቀረም" },
      { carrier: "usps", message: "USPS አልተዋቀረም" },
    ]);
  });

  test("answers given before any procedure runs follow the request's language too", async () => {
    const c = createClient(t);
    const notFound = await c.get("/api/nothing-here", { Cookie: `${LANGUAGE_COOKIE}=am` });
    expect(notFound.json).toEqual({ message: "አልተገኘም", code: "NOT_FOUND", messageId: "error.http.notFound" });
    // Over the size limit: declared up front (refused on arrival), or found while reading a tRPC body.
    const big = JSON.stringify("y".repeat(1536 * 1024));
    const declared = await c.post("/api/loads", big, { "Accept-Language": "om", "Content-Length": String(big.length) });
    const read = await c.post("/trpc/loads.create", big, { "Accept-Language": "om" });
    for (const res of [declared, read]) {
      expect(res.status).toBe(413);
      expect(res.json).toEqual({
        message: "Qaamni gaaffii MB 1 caala",
        code: "PAYLOAD_TOO_LARGE",
        messageId: "error.http.bodyTooLarge",
      });
    }
    // Signed out, a write is refused before its body is read.
    const signedOut = await c.post("/api/loads", loadInput(), { "Accept-Language": "am" });
    expect(signedOut.status).toBe(401);
    expect(signedOut.json).toEqual({
      message: "ለመቀጠል ይግቡ",
      code: "UNAUTHORIZED",
      messageId: "error.auth.signInRequired",
    });
  });
});
