import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";
import { MAX_JSON_BODY_BYTES } from "./body";

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

  test("a refusal is not kept: the key runs again, and a corrected request with it is done once", async () => {
    const key = { "Idempotency-Key": "queued-refused-0001" };
    const refused = await driver.post(`/api/loads/${loadId}/messages`, { body: "" }, key);
    expect(refused.status).toBe(400);
    const again = await driver.post(`/api/loads/${loadId}/messages`, { body: "" }, key);
    expect(again.status).toBe(400);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.json).toEqual(refused.json);
    const corrected = await driver.post(`/api/loads/${loadId}/messages`, { body: "Fixed typo" }, key);
    expect(corrected.status).toBe(201);
    const replayed = await driver.post(`/api/loads/${loadId}/messages`, { body: "Fixed typo" }, key);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.json).toEqual(corrected.json);
    expect(await messageCount()).toBe(1);
  });

  test("one key with another body, path or method is a 422 naming the header, and nothing is written", async () => {
    const key = { "Idempotency-Key": "queued-body-0001" };
    const first = await driver.post(`/api/loads/${loadId}/messages`, { body: "Can load tomorrow" }, key);
    expect(first.status).toBe(201);
    const otherBody = await driver.post(`/api/loads/${loadId}/messages`, { body: "Can load today" }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.json).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      messageId: "error.http.idempotencyKeyReused",
      message: "This Idempotency-Key was used for another request",
    });
    expect(otherBody.json.issues[0].path).toBe("Idempotency-Key");
    expect(otherBody.headers.get("idempotent-replayed")).toBeNull();
    const otherPath = await driver.post("/api/drivers/location", { latitude: 9, longitude: 38.7 }, key);
    expect(otherPath.status).toBe(422);
    const otherQuery = await driver.post(`/api/loads/${loadId}/messages?x=1`, { body: "Can load tomorrow" }, key);
    expect(otherQuery.status).toBe(422);
    expect(await messageCount()).toBe(1);
    // In the caller's language.
    await driver.put("/api/user/language", { language: "am" });
    const inAmharic = await driver.post(`/api/loads/${loadId}/messages`, { body: "Another text" }, key);
    expect(inAmharic.status).toBe(422);
    expect(inAmharic.json.messageId).toBe("error.http.idempotencyKeyReused");
    expect(inAmharic.json.message).not.toBe("This Idempotency-Key was used for another request");
    expect(inAmharic.json.message).toContain("Idempotency-Key");
    // The first request itself is still answered from the store.
    const replay = await driver.post(`/api/loads/${loadId}/messages`, { body: "Can load tomorrow" }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
  });

  test("tRPC: the key covers the call's or batch's body, as the offline queue sends it again", async () => {
    const key = { "Idempotency-Key": "queued-trpc-body-0001" };
    // The queue's replay: the same URL and the same body text as the first try.
    const body = JSON.stringify({ loadId, body: "On my way" });
    const first = await driver.post("/trpc/messages.send", body, key);
    expect(first.status).toBe(200);
    const replay = await driver.post("/trpc/messages.send", body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
    const changed = await driver.post("/trpc/messages.send", { loadId, body: "Running late" }, key);
    expect(changed.status).toBe(422);
    expect(changed.json.issues[0].path).toBe("Idempotency-Key");
    expect(await messageCount()).toBe(1);

    const batchKey = { "Idempotency-Key": "queued-trpc-batch-0001" };
    const batch = (text: string) => ({ 0: { loadId, body: "First of two" }, 1: { loadId, body: text } });
    const sent = await driver.post("/trpc/messages.send,messages.send?batch=1", batch("Second of two"), batchKey);
    expect(sent.status).toBe(200);
    expect(await messageCount()).toBe(3);
    const swapped = await driver.post("/trpc/messages.send,messages.send?batch=1", batch("Another second"), batchKey);
    expect(swapped.status).toBe(422);
    const again = await driver.post("/trpc/messages.send,messages.send?batch=1", batch("Second of two"), batchKey);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await messageCount()).toBe(3);
  });

  test("a keyed body over the limit is a 413, read no further than the limit, and keeps nothing", async () => {
    const chunk = new TextEncoder().encode("z".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 4 * MAX_JSON_BODY_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await t.app.handle(
      new Request(`http://localhost/api/loads/${loadId}/messages`, {
        method: "POST",
        body: stream,
        duplex: "half",
        headers: { Cookie: driver.cookie, "Content-Type": "application/json", "Idempotency-Key": "queued-big-0001" },
      } as never),
    );
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(2 * MAX_JSON_BODY_BYTES);
    expect(await t.rows("SELECT key FROM idempotency_keys")).toEqual([]);
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
