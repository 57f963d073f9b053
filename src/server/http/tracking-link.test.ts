import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { TRACK_VIEWS_PER_MINUTE, TRACKING_LINK_TTL_MS } from "../modules/tracking/links";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

let t: TTestApp;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let anon: TClient;
let ips = 0;
/** A signed-out visitor from an address of its own, so the per-address view limit of one test spares the others. */
const visitor = () => createClient(t, `10.9.${Math.floor(++ips / 250)}.${ips % 250}`);

beforeAll(async () => {
  t = await createTestApp({ publicUrl: "https://mytess.example" });
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  anon = createClient(t);
  await registerUser(shipper, "shipper", { firstName: "Hanna", lastName: "Gebreselassie" });
  await registerUser(otherShipper, "shipper");
  await registerUser(driver, "driver", { firstName: "Dawit", lastName: "Tesfaye" });
});
afterAll(closeTestApps);

/** A load from Addis Ababa (Kality) to Adama awarded to `driver` a day ago, optionally picked up. */
const awarded = async (pickedUp = true) => {
  const load = (await shipper.post("/api/loads", loadInput({ specialInstructions: "Call Abebe at the gate" }))).json;
  const bid = (await driver.post(`/api/loads/${load.id}/bids`, { amount: 900 })).json.bid;
  expect((await shipper.post(`/api/bids/${bid.id}/accept`)).status).toBe(200);
  await t.rows("UPDATE bids SET updated_at = ? WHERE id = ?", Date.now() - DAY, bid.id);
  if (pickedUp) expect((await driver.post(`/api/loads/${load.id}/pickup`)).status).toBe(200);
  return load.id as number;
};

const point = (latitude: number, longitude: number, msAgo: number) => ({
  latitude,
  longitude,
  recordedAt: new Date(Date.now() - msAgo).toISOString(),
});

const newLink = async (loadId: number) => {
  const res = await shipper.post(`/api/loads/${loadId}/tracking-link`);
  expect(res.status).toBe(201);
  return res.json as { url: string; token: string; expiresAt: string | null };
};

describe("POST /api/loads/:id/tracking-link", () => {
  test("the shipper gets an unguessable link, open-ended before the delivery; only its hash is stored", async () => {
    const loadId = await awarded();
    const link = await newLink(loadId);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`https://mytess.example/track/${link.token}`);
    expect(link.expiresAt).toBeNull();
    const rows = await t.rows<{ token_hash: string }>(
      "SELECT token_hash FROM tracking_links WHERE load_id = ?",
      loadId,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(new Bun.CryptoHasher("sha256").update(link.token).digest("hex"));
    expect(JSON.stringify(await t.rows("SELECT * FROM tracking_links"))).not.toContain(link.token);
    // Two links are never the same.
    expect((await newLink(loadId)).token).not.toBe(link.token);
  });

  test("a new link replaces the old one, which stops working at once", async () => {
    const loadId = await awarded();
    const first = await newLink(loadId);
    const second = await newLink(loadId);
    expect((await visitor().get(`/api/track/${first.token}`)).status).toBe(404);
    expect((await visitor().get(`/api/track/${second.token}`)).status).toBe(200);
    expect(
      (
        await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM tracking_links WHERE load_id = ?", loadId)
      )[0].n,
    ).toBe(1);
  });

  test("another shipper and the driver get 404, a signed-out caller 401; no link is made", async () => {
    const loadId = await awarded();
    expect((await otherShipper.post(`/api/loads/${loadId}/tracking-link`)).status).toBe(404);
    expect((await otherShipper.post("/api/loads/999999/tracking-link")).status).toBe(404);
    expect((await otherShipper.get(`/api/loads/${loadId}/tracking-link`)).status).toBe(404);
    expect((await otherShipper.del(`/api/loads/${loadId}/tracking-link`)).status).toBe(404);
    // Drivers do not make links (shippers only); the assigned driver is told so rather than probing.
    expect((await driver.post(`/api/loads/${loadId}/tracking-link`)).status).toBe(403);
    expect((await anon.post(`/api/loads/${loadId}/tracking-link`)).status).toBe(401);
    expect((await anon.get(`/api/loads/${loadId}/tracking-link`)).status).toBe(401);
    expect((await anon.del(`/api/loads/${loadId}/tracking-link`)).status).toBe(401);
    expect(await t.rows("SELECT id FROM tracking_links WHERE load_id = ?", loadId)).toEqual([]);
  });

  test("a bad load id is a 400 naming it", async () => {
    for (const res of [
      await shipper.post("/api/loads/abc/tracking-link"),
      await shipper.get("/api/loads/0/tracking-link"),
      await shipper.del("/api/loads/-3/tracking-link"),
    ]) {
      expect(res.status).toBe(400);
      expect(res.json.message).toContain("id must be a positive integer");
    }
  });

  test("a load before the award or cancelled gets no link: 409", async () => {
    const posted = (await shipper.post("/api/loads", loadInput())).json.id;
    const res = await shipper.post(`/api/loads/${posted}/tracking-link`);
    expect(res.status).toBe(409);
    expect(res.json.message).toContain("after the award");
    const cancelled = await awarded(false);
    await shipper.post(`/api/loads/${cancelled}/cancel`, { reason: "Order postponed" });
    expect((await shipper.post(`/api/loads/${cancelled}/tracking-link`)).status).toBe(409);
  });

  test("the state and the revocation: a revoked link is 404 and the state says there is none", async () => {
    const loadId = await awarded();
    expect((await shipper.get(`/api/loads/${loadId}/tracking-link`)).json).toEqual({ link: null });
    const link = await newLink(loadId);
    const state = (await shipper.get(`/api/loads/${loadId}/tracking-link`)).json;
    expect(state.link).toMatchObject({ expiresAt: null });
    expect(JSON.stringify(state)).not.toContain(link.token);
    const revoked = await shipper.del(`/api/loads/${loadId}/tracking-link`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ revoked: true });
    expect((await shipper.del(`/api/loads/${loadId}/tracking-link`)).json).toEqual({ revoked: false });
    const gone = await visitor().get(`/api/track/${link.token}`);
    expect(gone.status).toBe(404);
    expect(gone.json.message).toBe("This tracking link has expired or was turned off");
    expect((await shipper.get(`/api/loads/${loadId}/tracking-link`)).json).toEqual({ link: null });
  });
});

describe("GET /api/track/:token", () => {
  test("shows the places, track, ETA and stage, and nothing personal", async () => {
    const loadId = await awarded();
    await driver.post(`/api/loads/${loadId}/positions`, {
      positions: [point(8.86, 38.84, 20 * MIN), point(8.8, 38.95, 10 * MIN), point(8.74, 39.03, MIN)],
    });
    const link = await newLink(loadId);
    const res = await visitor().get(`/api/track/${link.token}`);
    expect(res.status).toBe(200);
    const body = res.json;
    expect(body).toMatchObject({
      stage: "in_transit",
      pickup: { label: "Addis Ababa, Ethiopia", latitude: 8.9, longitude: 38.77 },
      delivery: { label: "Adama, Ethiopia", latitude: 8.54, longitude: 39.27 },
      lastPosition: { latitude: 8.74, longitude: 39.03 },
      deliveredAt: null,
      expiresAt: null,
    });
    expect(body.positions).toHaveLength(3);
    expect(body.eta).toBeString();
    expect(body.remainingMiles).toBeGreaterThan(0);
    expect(Object.keys(body).sort()).toEqual(
      [
        "stage",
        "pickup",
        "delivery",
        "positions",
        "lastPosition",
        "remainingMiles",
        "eta",
        "etaComputedAt",
        "deliveredAt",
        "expiresAt",
      ].sort(),
    );
    // Nothing of the parties, the price, the load or its ids: every personal field of the load and its people.
    const [load] = await t.rows<Record<string, unknown>>("SELECT * FROM loads WHERE id = ?", loadId);
    const people = await t.rows<Record<string, unknown>>(
      "SELECT email, first_name, last_name FROM users WHERE id IN (?, ?)",
      load.shipper_id as number,
      load.assigned_driver_id as number,
    );
    const text = res.text;
    for (const value of [
      load.title,
      load.description,
      load.pickup_address,
      load.delivery_address,
      load.special_instructions,
      ...people.flatMap((p) => Object.values(p)),
    ].filter((v) => typeof v === "string" && v)) {
      expect(text).not.toContain(value as string);
    }
    for (const key of ["id", "loadId", "shipperId", "assignedDriverId", "budget", "amount", "price", "events"])
      expect(text).not.toContain(`"${key}"`);
    expect(text).not.toContain("900");
    expect(text).not.toContain("1000");
    // The request carried no cookie and needs none.
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("before pickup the stage is awaiting pickup; after the delivery the link expires 7 days later", async () => {
    const loadId = await awarded(false);
    const link = await newLink(loadId);
    expect((await visitor().get(`/api/track/${link.token}`)).json.stage).toBe("awaiting_pickup");
    await driver.post(`/api/loads/${loadId}/pickup`);
    expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
    const delivered = (await visitor().get(`/api/track/${link.token}`)).json;
    expect(delivered.stage).toBe("delivered");
    const deliveredAt = Date.parse(delivered.deliveredAt);
    expect(Date.parse(delivered.expiresAt)).toBe(deliveredAt + TRACKING_LINK_TTL_MS);
    expect((await shipper.get(`/api/loads/${loadId}/tracking-link`)).json.link.expiresAt).toBe(delivered.expiresAt);
    // Eight days after the delivery: the link is gone, and no new one can be made.
    await t.rows("UPDATE loads SET delivered_at = ? WHERE id = ?", Date.now() - 8 * DAY, loadId);
    expect((await visitor().get(`/api/track/${link.token}`)).status).toBe(404);
    expect((await shipper.get(`/api/loads/${loadId}/tracking-link`)).json).toEqual({ link: null });
    const late = await shipper.post(`/api/loads/${loadId}/tracking-link`);
    expect(late.status).toBe(409);
    expect(late.json.message).toContain("7 days after the delivery");
  });

  test("a cancelled load's link stops working", async () => {
    const loadId = await awarded(false);
    const link = await newLink(loadId);
    await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "Order postponed" });
    expect((await visitor().get(`/api/track/${link.token}`)).status).toBe(404);
  });

  test("an unknown token is 404 in the visitor's language; a malformed one a 400 naming token", async () => {
    const unknown = "A".repeat(43);
    const res = await visitor().get(`/api/track/${unknown}`, { "Accept-Language": "am" });
    expect(res.status).toBe(404);
    expect(res.json.messageId).toBe("error.tracking.linkGone");
    expect(res.json.message).not.toBe("This tracking link has expired or was turned off");
    const bad = await visitor().get("/api/track/short");
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("token");
  });

  test("views are limited per client address: past the limit a 429 with Retry-After, other addresses go on", async () => {
    const loadId = await awarded();
    const link = await newLink(loadId);
    const one = visitor();
    for (let i = 0; i < TRACK_VIEWS_PER_MINUTE; i++)
      expect((await one.get(`/api/track/${link.token}`)).status).toBe(200);
    const refused = await one.get(`/api/track/${link.token}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Guessing tokens counts too.
    expect((await one.get(`/api/track/${"B".repeat(43)}`)).status).toBe(429);
    expect((await visitor().get(`/api/track/${link.token}`)).status).toBe(200);
  });
});
