// The routes and procedures added for the engine, the phone, the calendar and the landing page, each held to the two
// promises every route keeps: bad input is a 4xx naming the field with nothing written, and another user's data is
// neither visible nor changeable.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const query = (path: string, input: unknown) => `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
const usersRow = async (id: number) =>
  (
    await t.rows<{ calendar: string; ethiopian_time: number | boolean }>(
      "select calendar, ethiopian_time from users where id = ?",
      id,
    )
  )[0];

describe("PUT /api/user/calendar (user.updateCalendar)", () => {
  test("bad input through either door is a 400 naming the field, and the account is unchanged", async () => {
    const c = createClient(t);
    const me = await registerUser(c, "driver");
    for (const [body, field] of [
      [{ calendar: "julian" }, "calendar"],
      [{}, "calendar"],
      [{ calendar: "ethiopic", ethiopianTime: 1 }, "ethiopianTime"],
    ] as const) {
      const rest = await c.put("/api/user/calendar", body);
      expect(rest.status).toBe(400);
      expect(rest.json.issues[0].path).toBe(field);
      const rpc = await c.post("/trpc/user.updateCalendar", body);
      expect(rpc.status).toBe(400);
      expect(rpc.json.error.data.issues[0].path).toBe(field);
    }
    expect((await usersRow(me.id)).calendar).toBe("gregorian");
  });

  test("changes only the caller's own account, whatever user id the body names", async () => {
    const a = createClient(t);
    const b = createClient(t);
    await registerUser(a, "driver");
    const other = await registerUser(b, "shipper");
    const res = await a.put("/api/user/calendar", { calendar: "ethiopic", ethiopianTime: true, id: other.id });
    expect(res.status).toBe(200);
    expect(res.json.user.id).not.toBe(other.id);
    expect((await b.get("/api/auth/user")).json.user).toMatchObject({ calendar: "gregorian", ethiopianTime: false });
    expect((await usersRow(other.id)).calendar).toBe("gregorian");
  });
});

describe("POST /api/logout", () => {
  test("ends only the caller's session: another user stays signed in", async () => {
    const a = createClient(t);
    const b = createClient(t);
    await registerUser(a, "driver");
    await registerUser(b, "driver");
    expect((await a.post("/api/logout", undefined, { Origin: "http://localhost" })).status).toBe(302);
    expect((await a.get("/api/auth/user")).status).toBe(401);
    expect((await b.get("/api/auth/user")).status).toBe(200);
    const [{ n }] = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from sessions");
    expect(n).toBe(1);
  });

  test("a body, even a malformed one, changes nothing but the caller's own session", async () => {
    const a = createClient(t);
    const b = createClient(t);
    await registerUser(a, "driver");
    await registerUser(b, "driver");
    const res = await a.post("/api/logout", "{not json", { Origin: "http://localhost" });
    expect(res.status).toBeLessThan(500);
    expect((await b.get("/api/auth/user")).status).toBe(200);
    // Signed out, a second POST has nothing to end and is not an error.
    expect((await a.post("/api/logout", undefined, { Origin: "http://localhost" })).status).toBe(302);
  });
});

describe("loads.minePage", () => {
  test("bad input is a 400 naming the field", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    for (const [input, field] of [
      [{ status: "lost" }, "status"],
      [{ page: 0 }, "page"],
      [{ pageSize: 1000 }, "pageSize"],
      [{ q: "x".repeat(500) }, "q"],
    ] as const) {
      const res = await c.get(query("loads.minePage", input));
      expect(res.status).toBe(400);
      expect(res.json.error.data.issues[0].path).toBe(field);
    }
  });

  test("a shipper never sees another shipper's loads; drivers are refused", async () => {
    const a = createClient(t);
    const b = createClient(t);
    const driver = createClient(t);
    await registerUser(a, "shipper");
    await registerUser(b, "shipper");
    await registerUser(driver, "driver");
    const posted = await b.post("/api/loads", loadInput({ title: "Sesame" }));
    expect(posted.status).toBe(201);
    expect((await b.get(query("loads.minePage", {}))).json.result.data.total).toBe(1);
    expect((await a.get(query("loads.minePage", { q: "sesame" }))).json.result.data).toMatchObject({
      total: 0,
      items: [],
    });
    expect((await driver.get(query("loads.minePage", {}))).status).toBe(403);
    expect((await createClient(t).get(query("loads.minePage", {}))).status).toBe(401);
  });
});

describe("places.near", () => {
  test("bad coordinates are a 400 naming the field", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    for (const [input, field, message] of [
      [{ latitude: 91, longitude: 38 }, "latitude", "latitude must be between -90 and 90"],
      [{ latitude: 9, longitude: -181 }, "longitude", "longitude must be between -180 and 180"],
      [{ latitude: 9 }, "longitude", "longitude must be a number"],
      [{ latitude: "nine", longitude: 38 }, "latitude", "latitude must be a number"],
    ] as const) {
      const res = await c.get(query("places.near", input));
      expect(res.status).toBe(400);
      expect(res.json.error.data.issues[0]).toMatchObject({ path: field, message });
    }
  });
});

describe("platform.bidsDemo", () => {
  test("it takes no input and changes nothing: a write to it is refused; with no posted load it shows nothing", async () => {
    const c = createClient(t);
    expect((await c.post("/trpc/platform.bidsDemo", {})).status).toBe(405);
    expect((await c.get(query("platform.bidsDemo", {}))).json.result.data).toBeNull();
  });
});

describe("platform.sampleLoads", () => {
  test("the landing's sample loads name no user: a signed-out visitor learns no shipper's id", async () => {
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    expect((await shipper.post("/api/loads", loadInput({ title: "Sesame" }))).status).toBe(201);
    const [sample] = (await createClient(t).get(query("platform.sampleLoads", { limit: 6 }))).json.result.data;
    expect(sample).toMatchObject({ title: "Sesame", shipperId: null, assignedDriverId: null });
    expect((await createClient(t).get(query("platform.sampleLoads", { limit: 50 }))).status).toBe(400);
  });
});

describe("admin procedures", () => {
  test("no web request reaches them, signed in or not: 403, and a dead job stays dead", async () => {
    const now = Date.now();
    await t.rows(
      `INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, last_error, created_at, updated_at, finished_at)
       VALUES ('notify', '{}', 'dead', ?, 5, 5, 'gone', ?, ?, ?)`,
      now,
      now,
      now,
      now,
    );
    const [{ id }] = await t.rows<{ id: number }>("select CAST(max(id) AS INTEGER) id from jobs");
    const signedIn = createClient(t);
    await registerUser(signedIn, "shipper");
    for (const c of [createClient(t), signedIn]) {
      expect((await c.get(query("admin.listJobs", {}))).status).toBe(403);
      expect((await c.get(query("admin.listUsers", undefined))).status).toBe(403);
      const retry = await c.post("/trpc/admin.retryJob", { id });
      expect(retry.status).toBe(403);
      expect(retry.json.error.message).toBe("Operator access only");
      const create = await c.post("/trpc/admin.createUser", {
        email: "op@example.com",
        password: "long-enough-1",
        firstName: "O",
        lastName: "P",
        userType: "driver",
      });
      expect(create.status).toBe(403);
    }
    expect(await t.rows("select status from jobs where id = ?", id)).toEqual([{ status: "dead" }]);
    expect(await t.rows("select id from users where email = 'op@example.com'")).toEqual([]);
  });
});
