import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

let t: TTestApp;
let shipper: ReturnType<typeof createClient>;
let driver: ReturnType<typeof createClient>;
let loadId: number;

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  driver = createClient(t);
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
  const load = await shipper.post("/api/loads", loadInput({ budgetAmount: 4000 }));
  loadId = load.json.id;
  expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 3800 })).status).toBe(201);
});

const messageCount = async () =>
  (await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages"))[0].n;

describe("Idempotency-Key", () => {
  test("a REST write sent twice with one key is done once and answered the same both times", async () => {
    const key = { "Idempotency-Key": "queued-7f3a9c2e-0001" };
    const first = await driver.post(`/api/loads/${loadId}/messages`, { body: "Can load tomorrow" }, key);
    const again = await driver.post(`/api/loads/${loadId}/messages`, { body: "Can load tomorrow" }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(await messageCount()).toBe(1);
    // Without a key, or with another, it is a new write.
    await driver.post(
      `/api/loads/${loadId}/messages`,
      { body: "Can load tomorrow" },
      { "Idempotency-Key": "queued-7f3a9c2e-0002" },
    );
    expect(await messageCount()).toBe(2);
  });

  test("a tRPC write replayed with its key is done once", async () => {
    const send = () =>
      driver.post("/trpc/messages.send", { loadId, body: "On my way" }, { "Idempotency-Key": "queued-trpc-0001" });
    const [a, b] = [await send(), await send()];
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.json.result.data.id).toBe(a.json.result.data.id);
    expect(await messageCount()).toBe(1);
  });

  test("two replays racing each other write once", async () => {
    const key = { "Idempotency-Key": "queued-race-0001" };
    const results = await Promise.all(
      [1, 2, 3].map(() => driver.post(`/api/loads/${loadId}/messages`, { body: "Racing" }, key)),
    );
    expect(results.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(await messageCount()).toBe(1);
  });

  test("a refused write is refused again on replay, and a key cannot be reused for another request", async () => {
    const key = { "Idempotency-Key": "queued-refused-0001" };
    const refused = await driver.post(`/api/loads/${loadId}/messages`, { body: "" }, key);
    expect(refused.status).toBe(400);
    const replay = await driver.post(`/api/loads/${loadId}/messages`, { body: "" }, key);
    expect(replay.status).toBe(400);
    expect(replay.json).toEqual(refused.json);
    const other = await driver.post(`/api/drivers/location`, { latitude: 9, longitude: 38.7 }, key);
    expect(other.status).toBe(409);
    expect(other.json.message).toBe("This Idempotency-Key was used for another request");
  });

  test("keys are per user, and a malformed key is a 400 naming the header", async () => {
    const key = { "Idempotency-Key": "shared-key-0001" };
    expect((await driver.post(`/api/loads/${loadId}/messages`, { body: "Hello" }, key)).status).toBe(201);
    const fromShipper = await shipper.post(
      `/api/loads/${loadId}/messages`,
      { body: "Hello driver", driverId: (await driver.get("/api/auth/user")).json.user.id },
      key,
    );
    expect(fromShipper.status).toBe(201);
    expect(fromShipper.json.body).toBe("Hello driver");
    const bad = await driver.post(`/api/loads/${loadId}/messages`, { body: "x" }, { "Idempotency-Key": "no spaces!" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("Idempotency-Key");
  });
});
