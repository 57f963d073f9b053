import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../../shared/constants";
import { haversineMiles } from "../../shared/geo";
import { ZTruckSearchInput } from "../../shared/schemas/trucks";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { linkTelegram } from "../modules/notifications/testing";
import { housekeeping } from "../modules/platform/housekeeping";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Trucks over REST: a driver's posted availability (theirs alone), the shippers' search near a pickup through each
// engine's spatial index (checked against a full scan), and the invitation to bid that reaches the driver.
setDefaultTimeout(60_000);
const emu = startNotifyEmulators();
afterAll(() => emu.stop());
afterEach(closeTestApps);
const notifiers = notifiersFromEnv(
  { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);

const DAY = 24 * 60 * 60 * 1000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let driver: TClient;
let other: TClient;
let shipper: TClient;
let otherShipper: TClient;
let ids: { driver: number; other: number; shipper: number };
beforeEach(async () => {
  t = await createTestApp({}, undefined, notifiers);
  driver = createClient(t);
  other = createClient(t, "10.0.0.2");
  shipper = createClient(t, "10.0.0.3");
  otherShipper = createClient(t, "10.0.0.4");
  ids = {
    driver: (await registerUser(driver, "driver")).id,
    other: (await registerUser(other, "driver", { firstName: "Kebede", lastName: "Tola" })).id,
    shipper: (await registerUser(shipper, "shipper")).id,
  };
  await registerUser(otherShipper, "shipper", { firstName: "Sara" });
});

/** A truck free near Adama for the next days, going towards Addis Ababa (100 mi around it). */
const truckInput = (over: Record<string, unknown> = {}) => ({
  originName: "Adama, Ethiopia",
  originLatitude: 8.54,
  originLongitude: 39.27,
  availableFrom: day(1),
  availableTo: day(5),
  destinationName: "Addis Ababa, Ethiopia",
  destinationLatitude: 9.01,
  destinationLongitude: 38.76,
  destinationRadius: 100,
  equipmentType: "flatbed",
  capacityLbs: 40000,
  lengthFt: 40,
  plate: "3-A12345",
  note: "Tarps on board",
  ...over,
});
/** The fields the issues name (a list's element named by its list). */
const paths = (r: { json: { issues?: { path: string }[] } }) =>
  (r.json.issues ?? []).map((i) => i.path.replace(/\.\d+$/, ""));
const search = (c: TClient, q: Record<string, string | number>) =>
  c.get(`/api/trucks/search?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
// Near Addis Ababa's Kality terminal, loadInput's pickup.
const NEAR_ADDIS = { latitude: 8.9, longitude: 38.77 };

describe("trucks", () => {
  test("a driver posts, lists and deletes trucks; the destination may be anywhere", async () => {
    expect((await driver.get("/api/trucks")).json).toEqual([]);
    const posted = await driver.post("/api/trucks", truckInput({ originName: "  Adama, Ethiopia " }));
    expect(posted.status).toBe(201);
    expect(posted.json).toMatchObject({
      origin: { name: "Adama, Ethiopia", latitude: 8.54, longitude: 39.27 },
      destination: { name: "Addis Ababa, Ethiopia", latitude: 9.01, longitude: 38.76, radiusMiles: 100 },
      equipmentType: "flatbed",
      capacityLbs: 40000,
      lengthFt: 40,
      plate: "3-A12345",
      note: "Tarps on board",
      expired: false,
    });
    // A date is taken from its first millisecond to its last (UTC).
    expect(posted.json.availableFrom).toBe(`${day(1)}T00:00:00.000Z`);
    expect(posted.json.availableTo).toBe(`${day(5)}T23:59:59.999Z`);

    const anywhere = await driver.post(
      "/api/trucks",
      truckInput({
        destinationName: "",
        destinationLatitude: null,
        destinationLongitude: null,
        lengthFt: undefined,
        plate: undefined,
        note: "",
        equipmentType: "refrigerated",
      }),
    );
    expect(anywhere.status).toBe(201);
    expect(anywhere.json).toMatchObject({ destination: null, lengthFt: null, plate: null, note: null });

    const list = (await driver.get("/api/trucks")).json as { id: number }[];
    expect(list.map((x) => x.id)).toEqual([anywhere.json.id, posted.json.id]);

    const del = await driver.del(`/api/trucks/${posted.json.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: true });
    expect(((await driver.get("/api/trucks")).json as { id: number }[]).map((x) => x.id)).toEqual([anywhere.json.id]);
    expect((await driver.del(`/api/trucks/${posted.json.id}`)).status).toBe(404);
  });

  test("another account's truck is not found and stays; another shipper's load cannot be offered", async () => {
    const mine = (await driver.post("/api/trucks", truckInput())).json;
    const del = await other.del(`/api/trucks/${mine.id}`);
    expect(del.status).toBe(404);
    expect(del.json.message).toBe("Truck not found");
    expect((await other.get("/api/trucks")).json).toEqual([]);
    expect(((await driver.get("/api/trucks")).json as { id: number }[]).map((x) => x.id)).toEqual([mine.id]);

    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const theirs = await otherShipper.post(`/api/trucks/${mine.id}/invitations`, { loadId });
    expect(theirs.status).toBe(404);
    expect(theirs.json.message).toBe("Load not found");
    expect((await shipper.post(`/api/trucks/${mine.id + 1000}/invitations`, { loadId })).status).toBe(404);
    // The other shipper sees no invitation of the first one's.
    expect((await otherShipper.get("/api/trucks/invitations")).json).toEqual([]);
    expect((await other.get("/api/trucks/invitations")).json).toEqual([]);
    expect(await t.rows("SELECT id FROM truck_invitations")).toEqual([]);
  });

  test("signed out: 401 on every route; the wrong role: 403", async () => {
    const anon = createClient(t, "10.0.0.9");
    expect((await anon.get("/api/trucks")).status).toBe(401);
    expect((await anon.post("/api/trucks", truckInput())).status).toBe(401);
    expect((await anon.del("/api/trucks/1")).status).toBe(401);
    expect((await search(anon, NEAR_ADDIS)).status).toBe(401);
    expect((await anon.post("/api/trucks/1/invitations", { loadId: 1 })).status).toBe(401);
    expect((await anon.get("/api/trucks/invitations")).status).toBe(401);

    expect((await shipper.post("/api/trucks", truckInput())).status).toBe(403);
    expect((await shipper.get("/api/trucks")).status).toBe(403);
    expect((await search(driver, NEAR_ADDIS)).status).toBe(403);
    expect((await driver.post("/api/trucks/1/invitations", { loadId: 1 })).status).toBe(403);
  });

  test("bad input names the field and posts nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ originLatitude: undefined }, "originLatitude"],
      [{ originLatitude: 91 }, "originLatitude"],
      [{ originName: "  " }, "originName"],
      [{ equipmentType: "spaceship" }, "equipmentType"],
      [{ capacityLbs: 0 }, "capacityLbs"],
      [{ availableFrom: "soon" }, "availableFrom"],
      [{ availableFrom: day(5), availableTo: day(4) }, "availableTo"],
      [{ destinationLongitude: null }, "destinationLongitude"],
      [{ destinationRadius: 30 }, "destinationRadius"],
      [{ plate: "x".repeat(21) }, "plate"],
    ];
    for (const [over, field] of cases) {
      const r = await driver.post("/api/trucks", truckInput(over));
      expect(r.status, field).toBe(400);
      expect(paths(r), field).toContain(field);
    }
    // A truck free only in the past is refused by the rule on today's date.
    const past = await driver.post("/api/trucks", truckInput({ availableFrom: day(-5), availableTo: day(-2) }));
    expect(past.status).toBe(400);
    expect(paths(past)).toEqual(["availableTo"]);
    expect(past.json.message).toBe("availableTo must not be in the past");
    expect((await driver.get("/api/trucks")).json).toEqual([]);

    for (const [q, field] of [
      [{ longitude: 38.7 }, "latitude"],
      [{ ...NEAR_ADDIS, radius: 30 }, "radius"],
      [{ ...NEAR_ADDIS, destinationLatitude: 9 }, "destinationLongitude"],
      [{ ...NEAR_ADDIS, equipmentType: "boat" }, "equipmentType"],
      [{ ...NEAR_ADDIS, minCapacityLbs: -1 }, "minCapacityLbs"],
      [{ ...NEAR_ADDIS, availableFrom: day(4), availableTo: day(2) }, "availableTo"],
      [{ ...NEAR_ADDIS, pageSize: 500 }, "pageSize"],
    ] as [Record<string, string | number>, string][]) {
      const r = await search(shipper, q);
      expect(r.status, field).toBe(400);
      expect(paths(r), field).toContain(field);
    }

    const truck = (await driver.post("/api/trucks", truckInput())).json;
    for (const body of [{}, { loadId: "seven" }, { loadId: -1 }]) {
      const r = await shipper.post(`/api/trucks/${truck.id}/invitations`, body);
      expect(r.status).toBe(400);
      expect(paths(r)).toContain("loadId");
    }
    const badId = await shipper.post("/api/trucks/abc/invitations", { loadId: 1 });
    expect(badId.status).toBe(400);
    expect(badId.json.message).toMatch(/\bid\b/);
    expect((await driver.get("/api/trucks/invitations?loadId=x")).status).toBe(400);
  });

  test("the search: nearest first, within the radius, filtered, paged; expired trucks hidden; no contact details", async () => {
    const post = async (c: TClient, over: Record<string, unknown>) => {
      const r = await c.post("/api/trucks", truckInput(over));
      expect(r.status).toBe(201);
      return r.json.id as number;
    };
    // Around Addis Ababa: Kality (0 mi), Bishoftu (~22 mi), Adama (~53 mi); Hawassa (~150 mi) is outside 100 mi.
    const kality = await post(driver, { originName: "Kality", originLatitude: 8.9, originLongitude: 38.77 });
    const bishoftu = await post(other, {
      originName: "Bishoftu",
      originLatitude: 8.75,
      originLongitude: 38.98,
      destinationLatitude: null,
      destinationLongitude: null,
      equipmentType: "dry_van",
      capacityLbs: 20000,
    });
    const adama = await post(other, {
      originName: "Adama",
      // Going to Djibouti only.
      destinationName: "Djibouti",
      destinationLatitude: 11.59,
      destinationLongitude: 43.15,
      destinationRadius: 50,
      availableFrom: day(6),
      availableTo: day(8),
    });
    await post(driver, { originName: "Hawassa", originLatitude: 7.06, originLongitude: 38.48 });
    const expired = await post(driver, { originName: "Kality too", originLatitude: 8.9, originLongitude: 38.78 });
    await t.rows("UPDATE trucks SET available_end = ? WHERE id = ?", Date.now() - 1000, expired);
    await t.rows("UPDATE users SET total_trips = 12, rating_sum = 9, total_ratings = 2 WHERE id = ?", ids.other);

    const all = await search(shipper, { ...NEAR_ADDIS, radius: 100 });
    expect(all.status).toBe(200);
    expect(all.json.items.map((x: { id: number }) => x.id)).toEqual([kality, bishoftu, adama]);
    expect(all.json.items[1]).toMatchObject({
      origin: { name: "Bishoftu" },
      destination: null,
      equipmentType: "dry_van",
      driver: { name: "Kebede T.", rating: 4.5, ratings: 2, trips: 12, verified: false },
      invitedLoadIds: [],
    });
    expect(all.json.items[0].distanceMiles).toBe(0);
    expect(all.json.items[1].distanceMiles).toBeGreaterThan(15);
    // Nothing that reaches the driver: no id, email, phone or plate.
    for (const item of all.json.items) {
      expect(Object.keys(item).sort()).toEqual(
        [
          "availableFrom",
          "availableTo",
          "capacityLbs",
          "createdAt",
          "destination",
          "distanceMiles",
          "driver",
          "equipmentType",
          "id",
          "invitedLoadIds",
          "lengthFt",
          "note",
          "origin",
        ].sort(),
      );
      expect(Object.keys(item.driver).sort()).toEqual(["name", "rating", "ratings", "trips", "verified"]);
    }
    expect(all.text).not.toContain("@example.com");

    const ids100 = async (q: Record<string, string | number>) =>
      ((await search(shipper, { ...NEAR_ADDIS, radius: 100, ...q })).json.items as { id: number }[]).map((x) => x.id);
    expect(await ids100({ radius: 25 })).toEqual([kality, bishoftu]);
    // Going towards Adama: Kality's destination (Addis, 100 mi) meets it, Bishoftu goes anywhere, Adama's truck only
    // to Djibouti.
    expect(await ids100({ destinationLatitude: 8.54, destinationLongitude: 39.27, destinationRadius: 25 })).toEqual([
      kality,
      bishoftu,
    ]);
    expect(await ids100({ destinationLatitude: 11.6, destinationLongitude: 43.1, destinationRadius: 25 })).toEqual([
      bishoftu,
      adama,
    ]);
    expect(await ids100({ availableFrom: day(6), availableTo: day(7) })).toEqual([adama]);
    expect(await ids100({ availableTo: day(2) })).toEqual([kality, bishoftu]);
    expect(await ids100({ equipmentType: "dry_van,refrigerated" })).toEqual([bishoftu]);
    expect(await ids100({ minCapacityLbs: 30000 })).toEqual([kality, adama]);

    const first = await search(shipper, { ...NEAR_ADDIS, radius: 100, pageSize: 2 });
    expect(first.json).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    expect(first.json.items.map((x: { id: number }) => x.id)).toEqual([kality, bishoftu]);
    const second = await search(shipper, { ...NEAR_ADDIS, radius: 100, pageSize: 2, page: 2 });
    expect(second.json).toMatchObject({ page: 2, hasMore: false });
    expect(second.json.items.map((x: { id: number }) => x.id)).toEqual([adama]);

    // The driver still sees the expired truck, marked so; housekeeping removes it a week later.
    const mine = (await driver.get("/api/trucks")).json as { id: number; expired: boolean }[];
    expect(mine.find((x) => x.id === expired)?.expired).toBe(true);
    expect((await housekeeping(t.db, Date.now() + 6 * DAY)).trucks).toBe(0);
    expect((await housekeeping(t.db, Date.now() + 8 * DAY)).trucks).toBe(1);
    expect(((await driver.get("/api/trucks")).json as { id: number }[]).map((x) => x.id)).not.toContain(expired);
  });

  test("the index's answers agree with a full scan of every truck", async () => {
    // Random trucks over the Horn of Africa, some across the antimeridian's far side of nothing (plain spread), and
    // random searches: the engine's index query must find exactly the trucks a scan of every row finds, in order.
    let seed = 42;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const now = Date.now();
    type TRow = {
      id: number;
      lat: number;
      lng: number;
      from: number;
      to: number;
      dlat: number | null;
      dlng: number | null;
      dr: number | null;
      eq: string;
      cap: number;
    };
    const rows: TRow[] = [];
    for (let i = 0; i < 400; i++) {
      const anywhere = rnd() < 0.3;
      const from = now + Math.floor((rnd() * 20 - 5) * DAY);
      const row = {
        lat: 3 + rnd() * 12,
        lng: 33 + rnd() * 14,
        from,
        to: from + Math.floor((0.5 + rnd() * 6) * DAY),
        dlat: anywhere ? null : 3 + rnd() * 12,
        dlng: anywhere ? null : 33 + rnd() * 14,
        dr: anywhere ? null : RADIUS_OPTIONS[Math.floor(rnd() * RADIUS_OPTIONS.length)]!,
        eq: EQUIPMENT_TYPES[Math.floor(rnd() * 3)]!,
        cap: Math.round(5000 + rnd() * 60000),
      };
      const [inserted] = await t.rows<{ id: number }>(
        `INSERT INTO trucks (driver_id, origin_name, origin_latitude, origin_longitude, available_start, available_end,
           destination_latitude, destination_longitude, destination_radius_miles, equipment_type, capacity_lbs, created_at)
         VALUES (?, 'x', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        ids.driver,
        row.lat,
        row.lng,
        row.from,
        row.to,
        row.dlat,
        row.dlng,
        row.dr,
        row.eq,
        row.cap,
        now,
      );
      rows.push({ id: Number(inserted!.id), ...row });
    }
    let compared = 0;
    let found = 0;
    for (let s = 0; s < 40; s++) {
      const q: Record<string, string | number> = {
        latitude: 3 + rnd() * 12,
        longitude: 33 + rnd() * 14,
        radius: RADIUS_OPTIONS[1 + Math.floor(rnd() * 4)]!,
        pageSize: 100,
      };
      if (rnd() < 0.5) Object.assign(q, { destinationLatitude: 3 + rnd() * 12, destinationLongitude: 33 + rnd() * 14 });
      if (rnd() < 0.4) q.destinationRadius = RADIUS_OPTIONS[Math.floor(rnd() * RADIUS_OPTIONS.length)]!;
      if (rnd() < 0.4) q.availableFrom = new Date(now + rnd() * 10 * DAY).toISOString();
      if (rnd() < 0.4) q.availableTo = new Date(now + (10 + rnd() * 10) * DAY).toISOString();
      if (rnd() < 0.4) q.equipmentType = EQUIPMENT_TYPES.slice(0, 2).join(",");
      if (rnd() < 0.4) q.minCapacityLbs = Math.round(rnd() * 50000) + 1;
      const p = ZTruckSearchInput.parse(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])));
      const scan = rows
        .map((r) => ({ r, d: haversineMiles(p.latitude, p.longitude, r.lat, r.lng) }))
        .filter(
          ({ r, d }) =>
            d <= p.radius &&
            r.to >= now &&
            (p.availableFrom === undefined || r.to >= p.availableFrom) &&
            (p.availableTo === undefined || r.from <= p.availableTo) &&
            (!p.equipmentType || p.equipmentType.includes(r.eq as never)) &&
            (p.minCapacityLbs === undefined || r.cap >= p.minCapacityLbs) &&
            (p.destinationLatitude === undefined ||
              r.dlat === null ||
              haversineMiles(p.destinationLatitude, p.destinationLongitude!, r.dlat, r.dlng!) <=
                r.dr! + p.destinationRadius),
        )
        .sort((a, b) => a.d - b.d || a.r.id - b.r.id)
        .map(({ r }) => r.id);
      const got = await t.db.q.searchTrucks(p, now);
      // A distance within a hair of the radius may round either way in SQL; none of these searches has one.
      expect(got.rows.map((r) => r.id)).toEqual(scan.slice(0, 100));
      expect(got.hasMore).toBe(scan.length > 100);
      compared++;
      found += scan.length;
    }
    expect(compared).toBe(40);
    // The searches found trucks (not forty empty answers agreeing).
    expect(found).toBeGreaterThan(100);
  });
});

describe("invitations to bid", () => {
  const run = () =>
    startWorker({
      db: t.db,
      log: logger,
      handlers: jobHandlers({ notifiers, baseUrl: "https://mytess.example" }),
      schedules: [],
      autoStart: false,
    }).runOnce();

  test("the shipper invites a found truck's driver to a load: the bell, the driver's Telegram, once per truck and load", async () => {
    const chatId = 7_780_001;
    emu.telegram.addUser({ id: chatId, firstName: "Dawit" });
    await linkTelegram(t.db, driver, chatId);
    const prefs = await driver.put("/api/messaging/preferences", {
      whatsappEnabled: false,
      whatsappNumber: "",
      telegramEnabled: true,
      telegramChatId: String(chatId),
      notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
      language: "en",
    });
    expect(prefs.status).toBe(200);

    const truck = (await driver.post("/api/trucks", truckInput())).json;
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const found = await search(shipper, { ...NEAR_ADDIS, radius: 100 });
    expect(found.json.items.map((x: { id: number }) => x.id)).toEqual([truck.id]);

    const invited = await shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId });
    expect(invited.status).toBe(201);
    expect(invited.json).toMatchObject({
      truckId: truck.id,
      loadId,
      shipperName: "Hana A.",
      route: "Addis Ababa, Ethiopia → Adama, Ethiopia",
      loadTitle: "Cement, 40 t",
    });
    const again = await shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe("You already invited this truck's driver to bid on this load");

    // The bell, in the driver's language, with the load's link.
    const bell = await t.rows<{ title: string; body: string; url: string }>(
      "SELECT title, body, url FROM notifications WHERE channel = 'in_app' AND user_id = ?",
      ids.driver,
    );
    expect(bell).toEqual([
      {
        title: "Invitation to bid",
        body: "Hana invites you to bid on Addis Ababa, Ethiopia → Adama, Ethiopia.",
        url: `/loads/${loadId}`,
      },
    ]);
    for (let i = 0; i < 3; i++) await run();
    const sent = emu.telegram.sent(chatId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("Hana invites you to bid on Addis Ababa, Ethiopia → Adama, Ethiopia.");

    // Both sides see it: the driver on the load's page, the shipper in the search and on the load's page.
    const mine = await driver.get(`/api/trucks/invitations?loadId=${loadId}`);
    expect(mine.status).toBe(200);
    expect(mine.json).toEqual([invited.json]);
    expect((await driver.get(`/api/trucks/invitations?loadId=${loadId + 1}`)).json).toEqual([]);
    expect((await shipper.get("/api/trucks/invitations")).json).toEqual([invited.json]);
    expect((await search(shipper, NEAR_ADDIS)).json.items[0].invitedLoadIds).toEqual([loadId]);
    expect((await search(otherShipper, NEAR_ADDIS)).json.items[0].invitedLoadIds).toEqual([]);

    // The driver bids on the load as usual.
    const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount: 950, currency: "USD" });
    expect(bid.status).toBe(201);
  });

  test("the board, the dashboard's list and the load page say Invited to the invited driver only", async () => {
    const truck = (await driver.post("/api/trucks", truckInput())).json;
    await other.post("/api/trucks", truckInput({ plate: "3-B54321" }));
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const otherLoad = (await shipper.post("/api/loads", loadInput({ title: "Teff, 20 t" }))).json.id as number;
    const board = (c: TClient) => c.get(`/api/loads?latitude=${NEAR_ADDIS.latitude}&longitude=${NEAR_ADDIS.longitude}`);
    const invitedOf = (r: { json: { id: number; invited: boolean }[] }) =>
      Object.fromEntries(r.json.map((l) => [l.id, l.invited]));
    // Before any invitation nobody is invited.
    expect(invitedOf(await board(driver))).toEqual({ [loadId]: false, [otherLoad]: false });

    expect((await shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId })).status).toBe(201);

    // The invited driver: the REST board (a field beside the load's), the tRPC board and the load's page.
    const mine = await board(driver);
    expect(mine.status).toBe(200);
    expect(invitedOf(mine)).toEqual({ [loadId]: true, [otherLoad]: false });
    const page = await driver.get(`/api/loads/${loadId}`);
    expect(page.json.invited).toBe(true);
    expect((await driver.get(`/api/loads/${otherLoad}`)).json.invited).toBe(false);
    // Another driver (with a truck of their own near by) and the shipper see no invitation of theirs.
    expect(invitedOf(await board(other))).toEqual({ [loadId]: false, [otherLoad]: false });
    expect((await other.get(`/api/loads/${loadId}`)).json.invited).toBe(false);
    expect(invitedOf(await board(shipper))).toEqual({ [loadId]: false, [otherLoad]: false });
    expect((await shipper.get(`/api/loads/${loadId}`)).json.invited).toBe(false);
  });

  test("two invitations of the same truck to the same load at once: one is written, one notification", async () => {
    const truck = (await driver.post("/api/trucks", truckInput())).json;
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const answers = await Promise.all([
      shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId }),
      shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await t.rows("SELECT id FROM truck_invitations")).toHaveLength(1);
    expect(await t.rows("SELECT id FROM notifications WHERE user_id = ?", ids.driver)).toHaveLength(1);
  });

  test("only the shipper's open load, and only a truck a search would show", async () => {
    const truck = (await driver.post("/api/trucks", truckInput())).json;
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await t.rows("UPDATE loads SET status = 'cancelled' WHERE id = ?", loadId);
    const closed = await shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId });
    expect(closed.status).toBe(409);
    expect(closed.json.message).toBe("Only a load still open for bids can be offered to a truck");

    const open = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await t.rows("UPDATE trucks SET available_end = ? WHERE id = ?", Date.now() - 1000, truck.id);
    const gone = await shipper.post(`/api/trucks/${truck.id}/invitations`, { loadId: open });
    expect(gone.status).toBe(404);
    expect(gone.json.message).toBe("Truck not found");
    expect(await t.rows("SELECT id FROM truck_invitations")).toEqual([]);
    expect(await t.rows("SELECT id FROM notifications WHERE user_id = ?", ids.driver)).toEqual([]);
  });
});
