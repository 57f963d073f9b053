// A shipper edits a posted load over REST (PATCH /api/loads/:id, loads/edit.ts): the poster or a member of its shipper
// company, while it is posted; others get 404, other states 409, bad input 400 naming the field, nothing half-written.
// Drivers with a pending bid are told once each, in their language, which fields changed; the board shows the edit.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadInput, type TTestApp } from "../testing";
import { companyFixture } from "./testing-company";

setDefaultTimeout(60_000);

const { fx, newUser, join } = companyFixture(12);
let t: TTestApp;
beforeEach(() => {
  t = fx.t;
});
const DAY = 24 * 60 * 60 * 1000;
const BOARD = "/api/loads?latitude=8.9&longitude=38.77&radius=50";

/** A shipper company (owner, staff), the owner's posted load with two drivers' pending bids (one reads Amharic). */
const posted = async () => {
  const owner = await newUser("shipper");
  const created = await owner.c.post("/api/companies", { kind: "shipper", name: "Awash Cement", country: "ET" });
  expect(created.status).toBe(201);
  const companyId = created.json.company.id as number;
  const staff = await join(owner.c, companyId, "staff", "shipper");
  const loadId = (await owner.c.post("/api/loads", loadInput({ budgetAmount: 1000 }))).json.id as number;
  const [d1, d2] = [await newUser("driver"), await newUser("driver")];
  expect((await d2.c.put("/api/user/language", { language: "am" })).status).toBe(200);
  const b1 = (await d1.c.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid.id as number;
  const b2 = (await d2.c.post(`/api/loads/${loadId}/bids`, { amount: 950 })).json.bid.id as number;
  return { owner, staff, loadId, d1, d2, b1, b2 };
};

/** A user's in-app notifications about the load edit. */
const editNotices = (userId: number, loadId: number) =>
  t.rows<{ title: string; body: string; url: string }>(
    "SELECT title, body, url FROM notifications WHERE user_id = ? AND load_id = ? AND channel = 'in_app' AND (title = 'Load details changed' OR body LIKE '%' || ? || '%') ORDER BY id",
    userId,
    loadId,
    "ጨረታዎ",
  );

describe("editing a posted load", () => {
  test("the poster edits: new values everywhere at once, history kept, each bidder told once, bids still pending", async () => {
    const { owner, loadId, d1, d2, b1, b2 } = await posted();
    // The board's answer before the edit (kept by the page cache), then the edit.
    const before = await d1.c.get(BOARD);
    expect(before.json.find((l: { id: number }) => l.id === loadId).weight).toBe(40000);
    const pickupDate = new Date(Date.now() + 5 * DAY).toISOString();
    const deliveryDate = new Date(Date.now() + 6 * DAY).toISOString();
    const edited = await owner.c.patch(`/api/loads/${loadId}`, {
      weight: 32000,
      pickupDate,
      deliveryDate,
      deliveryCity: "Dire Dawa",
      deliveryLatitude: 9.6,
      deliveryLongitude: 41.85,
      budgetAmount: 1500,
      budgetCurrency: "ETB",
      title: "Cement, 40 t",
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      id: loadId,
      weight: 32000,
      pickupDate,
      deliveryDate,
      deliveryCity: "Dire Dawa",
      deliveryLocation: "Dire Dawa, Ethiopia",
      budgetAmount: 1500,
      budgetCurrency: "ETB",
      status: "posted",
    });
    // Derived values follow: the trip's miles are Addis Ababa to Dire Dawa now (about 214 miles, not 50).
    expect(edited.json.tripMiles).toBeGreaterThan(200);
    const [row] = await t.rows<{ budget_minor: number; weight_lbs: number }>(
      "SELECT CAST(budget_minor AS INTEGER) AS budget_minor, weight_lbs FROM loads WHERE id = ?",
      loadId,
    );
    expect(row).toEqual({ budget_minor: 150000, weight_lbs: 32000 });

    // The board and the load page show it at once.
    const board = await d1.c.get(BOARD);
    expect(board.status).toBe(200);
    expect(board.json.find((l: { id: number }) => l.id === loadId)).toMatchObject({
      weight: 32000,
      pickupDate,
      deliveryCity: "Dire Dawa",
    });
    expect((await d2.c.get(`/api/loads/${loadId}`)).json).toMatchObject({ weight: 32000, budgetAmount: 1500 });

    // The history: one `edited` step naming the fields that changed (the unchanged title is not among them).
    const [event] = await t.rows<{ kind: string; actor_id: number; detail: unknown }>(
      "SELECT kind, actor_id, detail FROM trip_events WHERE load_id = ?",
      loadId,
    );
    const detail = (typeof event!.detail === "string" ? JSON.parse(event!.detail) : event!.detail) as {
      fields: string[];
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    };
    expect(event!.kind).toBe("edited");
    expect(event!.actor_id).toBe(owner.id);
    expect(detail.fields.sort()).toEqual(
      [
        "budgetAmount",
        "budgetCurrency",
        "deliveryCity",
        "deliveryDate",
        "deliveryLatitude",
        "deliveryLongitude",
        "pickupDate",
        "weight",
      ].sort(),
    );
    expect(detail.before.weight).toBe(40000);
    expect(detail.after).toMatchObject({ weight: 32000, pickupDate, budgetCurrency: "ETB" });

    // Each bidder told once, in their language, naming what changed; the poster gets nothing about their own edit.
    const n1 = await editNotices(d1.id, loadId);
    expect(n1.length).toBe(1);
    expect(n1[0]!.title).toBe("Load details changed");
    expect(n1[0]!.body).toBe(
      "The shipper changed Cement, 40 t: delivery location, pickup date, delivery date, weight, budget. Your bid is still pending; check the load before the award.",
    );
    expect(n1[0]!.url).toBe(`/loads/${loadId}`);
    const n2 = await editNotices(d2.id, loadId);
    expect(n2.length).toBe(1);
    expect(n2[0]!.title).not.toBe("Load details changed");
    expect(n2[0]!.body).toContain("ክብደት");
    expect((await editNotices(owner.id, loadId)).length).toBe(0);
    const bids = await t.rows<{ id: number; status: string }>(
      "SELECT id, status FROM bids WHERE load_id = ? ORDER BY id",
      loadId,
    );
    expect(bids).toEqual([
      { id: b1, status: "pending" },
      { id: b2, status: "pending" },
    ]);

    // Sending the same values again changes nothing: no new history, no new notice.
    const same = await owner.c.patch(`/api/loads/${loadId}`, { weight: 32000 });
    expect(same.status).toBe(200);
    expect((await t.rows("SELECT id FROM trip_events WHERE load_id = ?", loadId)).length).toBe(1);
    expect((await editNotices(d1.id, loadId)).length).toBe(1);
  });

  test("a staff member edits the owner's load; a stranger, a bidder and another company get 404", async () => {
    const { owner, staff, loadId, d1, d2, b2 } = await posted();
    // A declined bid's driver is not told: only pending bids are.
    expect((await owner.c.post(`/api/bids/${b2}/reject`)).status).toBe(200);
    const ok = await staff.c.patch(`/api/loads/${loadId}`, { weight: 12345, specialInstructions: "Gate 3" });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ weight: 12345, specialInstructions: "Gate 3" });
    const told = await editNotices(d1.id, loadId);
    expect(told.map((n) => n.body)).toEqual([
      "The shipper changed Cement, 40 t: weight, special instructions. Your bid is still pending; check the load before the award.",
    ]);
    expect((await editNotices(d2.id, loadId)).length).toBe(0);
    const [event] = await t.rows<{ actor_id: number }>("SELECT actor_id FROM trip_events WHERE load_id = ?", loadId);
    expect(event!.actor_id).toBe(staff.id);

    const stranger = await newUser("shipper");
    const other = await newUser("shipper");
    expect((await other.c.post("/api/companies", { kind: "shipper", name: "Other Co", country: "ET" })).status).toBe(
      201,
    );
    for (const c of [stranger.c, other.c]) {
      const r = await c.patch(`/api/loads/${loadId}`, { weight: 1 });
      expect(r.status).toBe(404);
      expect(r.json.messageId).toBe("error.load.notFound");
    }
    // A driver is not a shipper at all (the shipper door refuses them before any load is read).
    expect((await d1.c.patch(`/api/loads/${loadId}`, { weight: 1 })).status).toBe(403);
    // A load that does not exist reads the same as another's.
    expect((await stranger.c.patch("/api/loads/999999", { weight: 1 })).status).toBe(404);
    const [row] = await t.rows<{ weight_lbs: number }>("SELECT weight_lbs FROM loads WHERE id = ?", loadId);
    expect(row!.weight_lbs).toBe(12345);
  });

  test("only while posted: an awarded or cancelled load is 409, unchanged", async () => {
    const { owner, loadId, b1 } = await posted();
    expect((await owner.c.post(`/api/bids/${b1}/accept`)).status).toBe(200);
    const r = await owner.c.patch(`/api/loads/${loadId}`, { weight: 1000 });
    expect(r.status).toBe(409);
    expect(r.json.messageId).toBe("error.load.editNotPosted");
    expect(r.json.message).toContain("only while it is posted; this one is assigned");
    expect((await owner.c.get(`/api/loads/${loadId}`)).json.weight).toBe(40000);

    const second = (await owner.c.post("/api/loads", loadInput())).json.id as number;
    expect((await owner.c.post(`/api/loads/${second}/cancel`, {})).status).toBe(200);
    expect((await owner.c.patch(`/api/loads/${second}`, { title: "Again" })).status).toBe(409);
  });

  test("an edit and an award at the same moment take turns: never an edit of an awarded load", async () => {
    const { owner, staff, loadId, b1 } = await posted();
    const [edit, award] = await Promise.all([
      staff.c.patch(`/api/loads/${loadId}`, { weight: 22222 }),
      owner.c.post(`/api/bids/${b1}/accept`),
    ]);
    expect(award.status).toBe(200);
    expect([200, 409]).toContain(edit.status);
    const kinds = (
      await t.rows<{ kind: string }>("SELECT kind FROM trip_events WHERE load_id = ? ORDER BY id", loadId)
    ).map((e) => e.kind);
    const [row] = await t.rows<{ weight_lbs: number; status: string }>(
      "SELECT weight_lbs, status FROM loads WHERE id = ?",
      loadId,
    );
    expect(row!.status).toBe("assigned");
    if (edit.status === 200) {
      expect(kinds).toEqual(["edited", "awarded"]);
      expect(row!.weight_lbs).toBe(22222);
    } else {
      expect(kinds).toEqual(["awarded"]);
      expect(row!.weight_lbs).toBe(40000);
    }
  });

  test("bad input names the field and writes nothing", async () => {
    const { owner, loadId, d1 } = await posted();
    const cases: [Record<string, unknown>, string][] = [
      [{}, "Give at least one field to change"],
      [{ weightKg: 5 }, "weightKg"],
      [{ weight: -5 }, "weight must be greater than 0"],
      [{ weight: "heavy" }, "weight must be a number"],
      [{ title: "" }, "title is required"],
      [{ equipmentType: "rocket" }, "equipmentType must be one of"],
      [{ budgetAmount: 10.123 }, "budgetAmount must have at most 2 decimals"],
      [{ pickupLatitude: 91 }, "pickupLatitude must be between -90 and 90"],
      [{ pickupDate: new Date(Date.now() - DAY).toISOString() }, "pickupDate must not be in the past"],
      // The delivery before the (unchanged) pickup: the rule spans the stored and the sent field.
      [{ deliveryDate: new Date(Date.now() + DAY).toISOString() }, "deliveryDate must be after pickupDate"],
      [{ weight: 20000, deliveryDate: "soon" }, "deliveryDate must be a date and time"],
    ];
    for (const [body, says] of cases) {
      const r = await owner.c.patch(`/api/loads/${loadId}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.json), JSON.stringify(body)).toContain(says);
    }
    const dateIssue = await owner.c.patch(`/api/loads/${loadId}`, {
      deliveryDate: new Date(Date.now() + DAY).toISOString(),
    });
    expect(dateIssue.json.issues).toEqual([{ path: "deliveryDate", message: "deliveryDate must be after pickupDate" }]);
    // Nothing was written, nobody told.
    expect((await owner.c.get(`/api/loads/${loadId}`)).json).toMatchObject({ weight: 40000, title: "Cement, 40 t" });
    expect((await t.rows("SELECT id FROM trip_events WHERE load_id = ?", loadId)).length).toBe(0);
    expect((await editNotices(d1.id, loadId)).length).toBe(0);
    // An optional text is cleared with null.
    const cleared = await owner.c.patch(`/api/loads/${loadId}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.json.description).toBeNull();
  });

  test("an external (synced board) load cannot be edited", async () => {
    const owner = await newUser("shipper");
    const now = Date.now();
    await t.rows(
      `INSERT INTO loads (title, pickup_address, pickup_city, pickup_country, pickup_latitude, pickup_longitude,
         delivery_address, delivery_city, delivery_country, delivery_latitude, delivery_longitude, pickup_date,
         delivery_date, weight_lbs, equipment_type, budget_minor, budget_currency, trip_miles, status, source_type,
         source_provider, source_external_id, source_owner_id, created_at, updated_at)
       VALUES ('Board load', 'A', 'Addis Ababa', 'Ethiopia', 8.9, 38.77, 'B', 'Adama', 'Ethiopia', 8.54, 39.27, ?, ?,
         1000, 'flatbed', 100000, 'USD', 50, 'posted', 'external', 'dat', 'x-1', ?, ?, ?)`,
      now + 3 * DAY,
      now + 4 * DAY,
      owner.id,
      now,
      now,
    );
    const [ext] = await t.rows<{ id: number }>("SELECT id FROM loads WHERE source_external_id = 'x-1'");
    const r = await owner.c.patch(`/api/loads/${ext!.id}`, { weight: 5 });
    expect(r.status).toBe(404);
  });
});
