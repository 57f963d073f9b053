// Regression tests for the holes an outside probe found (docs/security.md). Each test failed on the code before its
// fix.
import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, spyOn, test } from "bun:test";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { sampleNumber } from "../../../emulators/carriers/numbers";
import { emulatorEnv, startCarrierEmulators } from "../../../emulators/carriers/server";
import { MAX_TRPC_BATCH } from "../../shared/constants";
import { safeReturnTo } from "../../shared/return-to";
import { carriersFromEnv } from "../integrations/carriers/registry";
import { LOGIN_LIMITS, reserveLoginAttempt } from "../modules/accounts/rate-limit";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";
import type { AppRouter } from "../trpc/root";
import { MAX_JSON_BODY_BYTES } from "./body";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
const PASSWORD = "correct-horse-battery";

const emu = startCarrierEmulators();
afterAll(() => emu.stop());

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp({}, carriersFromEnv(emulatorEnv(emu.urls)));
});

const postLoad = async (who: TClient) => {
  const res = await who.post("/api/loads", loadInput({ budgetAmount: 2500 }));
  if (res.status !== 201) throw new Error(`post load: ${res.status} ${res.text}`);
  return res.json.id as number;
};

const bid = async (who: TClient, loadId: number, amount = 2000) => {
  const res = await who.post(`/api/loads/${loadId}/bids`, { amount, currency: "USD" });
  if (res.status !== 201) throw new Error(`bid: ${res.status} ${res.text}`);
  return res.json.bid.id as number;
};

/** A raw request through the app, for bodies and headers the client helper would not send. */
const raw = (path: string, init: RequestInit = {}) => t.app.handle(new Request(`http://localhost${path}`, init));

describe("1. request bodies", () => {
  test("a JSON string body is refused before any route spreads it into its input", async () => {
    const body = JSON.stringify("x".repeat(900_000));
    const paths = ["/api/loads/1/bids", "/api/loads/1/cancel", "/api/loads/1/rating", "/api/loads/1/messages"];
    // Anonymous: refused before the body is read at all.
    for (const path of paths) {
      const res = await raw(path, { method: "POST", body, headers: { "Content-Type": "application/json" } });
      expect(res.status).toBe(401);
    }
    // Signed in: the body is read, and a string is not an object.
    const driver = createClient(t);
    await registerUser(driver, "driver");
    for (const path of paths) {
      const res = await driver.post(path, body);
      expect(res.status).toBe(400);
      expect(res.json.message).toBe("The request body must be a JSON object");
    }
  }, 30_000);

  test("arrays, numbers and null are refused the same way", async () => {
    for (const body of ["[1,2,3]", "42", "null", '"text"', "true"]) {
      const res = await raw("/api/auth/register", { method: "POST", body });
      expect(res.status).toBe(400);
    }
  });

  test("a body over the limit is 413 with a JSON message, declared or streamed", async () => {
    const big = JSON.stringify("y".repeat(3 * 1024 * 1024));
    const length = { "Content-Length": String(big.length), "Content-Type": "application/json" };
    const declared = await raw("/api/loads/1/bids", { method: "POST", body: big, headers: length });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const viaTrpc = await raw("/trpc/bids.place", { method: "POST", body: big, headers: length });
    expect(viaTrpc.status).toBe(413);
    const trpcUndeclared = await raw("/trpc/bids.place", {
      method: "POST",
      body: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(trpcUndeclared.status).toBe(413);

    // A chunked body names no length: reading stops once the limit is passed.
    const chunk = new TextEncoder().encode("z".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 4 * MAX_JSON_BODY_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = await t.app.handle(
      new Request("http://localhost/api/auth/register", { method: "POST", body: stream, duplex: "half" } as never),
    );
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(2 * MAX_JSON_BODY_BYTES);
  });
});

describe("2 and 8. sign-in throttling", () => {
  test("of 30 simultaneous guesses on one account, only the allowance is evaluated", async () => {
    const owner = createClient(t);
    const { email } = await registerUser(owner, "driver");
    const attacker = createClient(t, "10.66.0.1");
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 17 ? PASSWORD : `wrong-guess-${i}`));
    const results = await Promise.all(guesses.map((password) => attacker.post("/api/auth/login", { email, password })));
    const evaluated = results.filter((r) => r.status !== 429);
    expect(evaluated.length).toBeLessThanOrEqual(LOGIN_LIMITS.maxPerAccountAddress);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(
      30 - LOGIN_LIMITS.maxPerAccountAddress,
    );
    // The right password, sent 18th, was refused unseen.
    expect(results[17].status).toBe(429);
  }, 60_000);

  test("of 30 simultaneous attempts from one address on many accounts, only the address's allowance is evaluated", async () => {
    const attacker = createClient(t, "10.66.0.2");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        attacker.post("/api/auth/login", { email: `spray${i}@example.com`, password: "password1" }),
      ),
    );
    expect(results.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(LOGIN_LIMITS.maxPerAddress);
  }, 60_000);

  test("guesses from many addresses slow the account down to one attempt per backoff, never a lockout", async () => {
    const email = "target@example.com";
    const start = 1_000_000_000_000;
    for (let i = 0; i < LOGIN_LIMITS.accountBackoffAfter; i++)
      await reserveLoginAttempt(t.db, email, `10.70.0.${i}`, start + i);
    const now = start + LOGIN_LIMITS.accountBackoffAfter;
    let refused: unknown;
    try {
      await reserveLoginAttempt(t.db, email, "10.80.0.1", now);
    } catch (e) {
      refused = e;
    }
    expect(refused).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(
      LOGIN_LIMITS.accountBackoffMs / 1000,
    );
    // Once the backoff has passed, the owner gets an attempt from anywhere.
    expect((await reserveLoginAttempt(t.db, email, "10.80.0.1", now + LOGIN_LIMITS.accountBackoffMs)).ids).toHaveLength(
      3,
    );
  });

  test("a right password leaves no failure behind", async () => {
    const c = createClient(t, "10.66.0.3");
    const { email } = await registerUser(c, "shipper");
    for (let i = 0; i < 8; i++)
      expect((await c.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  }, 60_000);
});

describe("3. other parties' loads", () => {
  test("non-posted loads are found only by their shipper and assigned driver, on every door", async () => {
    const shipper = createClient(t);
    const driver = createClient(t);
    const stranger = createClient(t);
    const otherShipper = createClient(t);
    await registerUser(shipper, "shipper");
    await registerUser(driver, "driver");
    await registerUser(stranger, "driver");
    await registerUser(otherShipper, "shipper");
    const loadId = await postLoad(shipper);
    const bidId = await bid(driver, loadId);
    expect((await shipper.post(`/api/bids/${bidId}/accept`)).status).toBe(200);

    const ids = async (c: TClient, q: string) =>
      ((await c.get(`/api/loads?${q}`)).json as { id: number }[]).map((l) => l.id);
    const near = "latitude=8.9&longitude=38.77&radius=100&sort=distance";
    for (const q of [
      "status=assigned",
      `status=assigned&${near}`,
      `status=assigned&${near.replace("distance", "rate")}`,
    ]) {
      expect(await ids(stranger, q)).not.toContain(loadId);
      expect(await ids(otherShipper, q)).not.toContain(loadId);
      expect(await ids(shipper, q)).toContain(loadId);
      expect(await ids(driver, q)).toContain(loadId);
    }
    expect((await stranger.get("/api/loads/stats?status=assigned")).json.total).toBe(0);
    expect((await shipper.get("/api/loads/stats?status=assigned")).json.total).toBe(1);

    const input = encodeURIComponent(JSON.stringify({ status: "assigned" }));
    const trpc = await stranger.get(`/trpc/loads.search?input=${input}`);
    expect(trpc.status).toBe(200);
    expect(trpc.json.result.data.items).toEqual([]);
    const trpcStats = await stranger.get(`/trpc/loads.stats?input=${input}`);
    expect(trpcStats.json.result.data.total).toBe(0);
  }, 30_000);
});

describe("4. redirects after sign-in", () => {
  test("only same-origin paths survive", () => {
    const origin = "https://mytess.app";
    for (const bad of [
      "/\\attacker.test/x",
      "/%09/attacker.test/x",
      "//attacker.test/x",
      "/%2F/attacker.test",
      "/%5Cattacker.test",
      "/\t/attacker.test",
      "https://attacker.test/",
      "javascript:alert(1)",
      "/%",
      "",
    ])
      expect(safeReturnTo(bad, origin)).toBe("/");
    expect(safeReturnTo("/loads?highlight=3#top", origin)).toBe("/loads?highlight=3#top");
    expect(safeReturnTo("/driver", origin)).toBe("/driver");
  });

  test("GET /api/login passes on only a safe returnTo", async () => {
    const c = createClient(t);
    for (const bad of ["/\\attacker.test/x", "/%09/attacker.test/x"]) {
      const res = await c.get(`/api/login?returnTo=${encodeURIComponent(bad)}`);
      const next = new URL(res.headers.get("location")!, "http://localhost");
      expect(next.searchParams.get("returnTo")).toBe("/");
    }
  });
});

describe("5. bad percent-encoding", () => {
  test("a malformed session cookie is no session, not a 500", async () => {
    const res = await raw("/api/auth/user", { headers: { Cookie: "mytess_session=%" } });
    expect(res.status).toBe(401);
    const stats = await raw("/api/platform-stats", { headers: { Cookie: "mytess_session=%E0%A4%A" } });
    expect(stats.status).toBe(200);
  });

  test("a malformed path is a 400, not a 500", async () => {
    for (const path of ["/%", "/assets/%", "/%E0%A4%A"]) expect((await raw(path)).status).toBe(400);
  });
});

describe("6. a carrier refusing the caller's input", () => {
  test("is a 4xx with the carrier's reason, not a 502", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    const res = await c.get("/api/shipping/track/ups/abc");
    expect(res.status).toBe(400);
    expect(res.json.message).toStartWith("UPS: ");
    // A good number still tracks.
    expect((await c.get(`/api/shipping/track/ups/${sampleNumber("ups", "delivered")}`)).status).toBe(200);
  });
});

describe("7. conversations after award and cancellation", () => {
  test("a bidder who lost the load reads the conversation but cannot write to it", async () => {
    const shipper = createClient(t);
    const winner = createClient(t);
    const loser = createClient(t);
    await registerUser(shipper, "shipper");
    const winnerId = (await registerUser(winner, "driver")).id;
    const loserId = (await registerUser(loser, "driver")).id;
    const loadId = await postLoad(shipper);
    const winning = await bid(winner, loadId);
    await bid(loser, loadId, 2100);
    expect((await loser.post(`/api/loads/${loadId}/messages`, { body: "Can you do 2100?" })).status).toBe(201);
    expect((await shipper.post(`/api/bids/${winning}/accept`)).status).toBe(200);

    const refused = await loser.post(`/api/loads/${loadId}/messages`, { body: "Still interested" });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe("The load went to another driver; this conversation is closed");
    const fromShipper = await shipper.post(`/api/loads/${loadId}/messages`, { body: "Sorry", driverId: loserId });
    expect(fromShipper.status).toBe(403);
    const thread = await loser.get(`/api/loads/${loadId}/messages`);
    expect(thread.status).toBe(200);
    expect(thread.json.closed).toBe("awarded_to_other");
    expect(thread.json.messages.map((m: { body: string }) => m.body)).toEqual(["Can you do 2100?"]);

    expect((await winner.post(`/api/loads/${loadId}/messages`, { body: "On my way" })).status).toBe(201);
    expect((await shipper.get(`/api/loads/${loadId}/messages?driverId=${winnerId}`)).json.closed).toBeNull();
  }, 30_000);

  test("a cancelled load's conversations are closed for every bidder", async () => {
    const shipper = createClient(t);
    const driver = createClient(t);
    await registerUser(shipper, "shipper");
    await registerUser(driver, "driver");
    const loadId = await postLoad(shipper);
    await bid(driver, loadId);
    expect((await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "Plans changed" })).status).toBe(200);
    const refused = await driver.post(`/api/loads/${loadId}/messages`, { body: "Hello?" });
    expect(refused.status).toBe(403);
    expect((await driver.get(`/api/loads/${loadId}/messages`)).json.closed).toBe("cancelled");
  }, 30_000);
});

describe("9. registration timing", () => {
  test("a taken email costs a password hash, like a new one", async () => {
    const c = createClient(t);
    const { email } = await registerUser(c, "driver");
    const hash = spyOn(Bun.password, "hash");
    try {
      const res = await createClient(t).post("/api/auth/register", {
        email,
        password: PASSWORD,
        firstName: "Abebe",
        lastName: "Kebede",
        userType: "driver",
      });
      expect(res.status).toBe(409);
      expect(hash).toHaveBeenCalledTimes(1);
    } finally {
      hash.mockRestore();
    }
  }, 30_000);
});

describe("10. cross-site sign-out", () => {
  test("a GET set off by another site only asks; the user's own navigation signs out", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    const asked = await c.get("/api/logout", { "Sec-Fetch-Site": "cross-site" });
    expect(asked.status).toBe(200);
    expect(asked.headers.get("content-type")).toContain("text/html");
    expect(asked.text).toContain('<form method="post" action="/api/logout">');
    expect((await c.get("/api/auth/user")).status).toBe(200);
    expect((await c.get("/api/logout", { "Sec-Fetch-Site": "same-site" })).status).toBe(200);
    expect((await c.get("/api/auth/user")).status).toBe(200);

    const confirmed = await c.post("/api/logout", undefined, { Origin: "http://localhost" });
    expect(confirmed.status).toBe(302);
    expect((await c.get("/api/auth/user")).status).toBe(401);
  }, 30_000);

  test("the typed address or the app's own link signs out at once", async () => {
    for (const site of ["none", "same-origin"]) {
      const c = createClient(t);
      await registerUser(c, "driver");
      const res = await c.get("/api/logout", { "Sec-Fetch-Site": site });
      expect(res.status).toBe(302);
      expect((await c.get("/api/auth/user")).status).toBe(401);
    }
  }, 30_000);

  test("a cross-site POST to /api/logout is refused", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const res = await c.post("/api/logout", undefined, { Origin: "https://attacker.test" });
    expect(res.status).toBe(403);
    expect((await c.get("/api/auth/user")).status).toBe(200);
  }, 30_000);
});

describe("11. profile image URLs", () => {
  test("only https image URLs off this site's API are accepted", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    for (const url of [
      "javascript:alert(1)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "file:///etc/passwd",
      "http://example.com/me.png",
      "https://localhost/api/logout",
      "https://mytess.app/trpc/auth.logout",
      "https://user:pw@example.com/me.png",
    ]) {
      const res = await c.put("/api/user/profile", { firstName: "Abebe", lastName: "Kebede", profileImageUrl: url });
      expect(res.status).toBe(400);
      expect(res.json.issues[0].path).toBe("profileImageUrl");
    }
    const ok = await c.put("/api/user/profile", {
      firstName: "Abebe",
      lastName: "Kebede",
      profileImageUrl: "https://images.example.com/abebe.png",
    });
    expect(ok.status).toBe(200);
  }, 30_000);
});

describe("12. tRPC answers", () => {
  test("carry Cache-Control: no-store", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const res = await c.get("/trpc/auth.me");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  }, 30_000);

  test("a batch is capped", async () => {
    const batch = (n: number) =>
      raw(`/trpc/${Array(n).fill("platform.fxRates").join(",")}?batch=1&input=${encodeURIComponent("{}")}`);
    expect((await batch(20)).status).toBe(200);
    const over = await batch(600);
    expect(over.status).toBeGreaterThanOrEqual(400);
    expect(over.status).toBeLessThan(500);
  });

  // The web app's batching link splits at the shared cap: a screen asking for more than twenty things at once (a
  // load page does) gets every answer instead of one refusal for all of them.
  test("a client that splits at the shared cap gets every answer to many queries made at once", async () => {
    const viaApp = (url: URL | RequestInfo, init?: RequestInit) =>
      t.app.handle(new Request(new URL(String(url), "http://localhost"), init));
    const ask = (maxItems?: number) => {
      const client = createTRPCClient<AppRouter>({
        links: [httpBatchLink({ url: "http://localhost/trpc", fetch: viaApp, ...(maxItems ? { maxItems } : {}) })],
      });
      return Promise.allSettled(Array.from({ length: 45 }, () => client.platform.fxRates.query()));
    };
    const split = await ask(MAX_TRPC_BATCH);
    expect(split.filter((r) => r.status === "fulfilled")).toHaveLength(45);
    // Unsplit, the same screen fails whole: the cap is real.
    const whole = await ask();
    expect(whole.filter((r) => r.status === "fulfilled")).toHaveLength(0);
  });
});
