import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { TOKEN_REQUESTS_PER_MINUTE } from "../modules/tokens/tokens";
import { createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

let t: TTestApp;
let shipper: ReturnType<typeof createClient>;
let other: ReturnType<typeof createClient>;
let anon: ReturnType<typeof createClient>;

beforeAll(async () => {
  t = await createTestApp();
  shipper = createClient(t, "10.80.0.1");
  other = createClient(t, "10.80.0.2");
  anon = createClient(t, "10.80.0.3");
  await registerUser(shipper, "shipper");
  await registerUser(other, "driver");
});
afterAll(() => t.close());

/** A caller with a bearer token and no cookie, as a shipper's own system would call. */
const withToken = async (token: string, method: string, path: string, body?: unknown, headers = {}) => {
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
};

const create = async (client: ReturnType<typeof createClient>, scopes: string[], name = "TMS") => {
  const res = await client.post("/api/tokens", { name, scopes });
  expect(res.status).toBe(201);
  return res.json as { id: number; token: string; prefix: string; scopes: string[]; name: string };
};

describe("API tokens", () => {
  test("created with a name and scopes, shown once, stored hashed, listed without the secret, revoked", async () => {
    const made = await create(shipper, ["loads:read", "loads:write"], "Our TMS");
    expect(made.token).toMatch(/^mt_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.token.startsWith(`${made.prefix}_`)).toBe(true);
    expect(made).toMatchObject({ name: "Our TMS", scopes: ["loads:read", "loads:write"], lastUsedAt: null });

    const [row] = await t.rows<{ token_hash: string }>("SELECT token_hash FROM api_tokens WHERE id = ?", made.id);
    expect(row!.token_hash).toBe(new Bun.CryptoHasher("sha256").update(made.token).digest("hex"));
    expect(JSON.stringify(await t.rows("SELECT * FROM api_tokens"))).not.toContain(
      made.token.slice(made.prefix.length + 1),
    );

    const list = await shipper.get("/api/tokens");
    expect(list.status).toBe(200);
    expect(list.json.map((x: { id: number }) => x.id)).toContain(made.id);
    expect(JSON.stringify(list.json)).not.toContain(made.token);

    expect((await withToken(made.token, "GET", "/api/loads/shipper")).status).toBe(200);
    expect((await shipper.del(`/api/tokens/${made.id}`)).status).toBe(200);
    const after = await withToken(made.token, "GET", "/api/loads/shipper");
    expect(after.status).toBe(401);
    expect(after.json.messageId).toBe("error.tokens.refused");
    expect((await shipper.get("/api/tokens")).json.map((x: { id: number }) => x.id)).not.toContain(made.id);
  });

  test("a bearer token works within its scopes; outside them a 403 names the missing scope", async () => {
    const { token } = await create(shipper, ["loads:read"]);
    const mine = await withToken(token, "GET", "/api/loads/shipper");
    expect(mine.status).toBe(200);
    const board = await withToken(token, "GET", "/api/loads?latitude=9&longitude=38.7");
    expect(board.status).toBe(200);
    expect(Array.isArray(board.json)).toBe(true);

    const post = await withToken(token, "POST", "/api/loads", loadInput());
    expect(post.status).toBe(403);
    expect(post.json.code).toBe("FORBIDDEN");
    expect(post.json.message).toContain("loads:write");
    expect(await t.rows("SELECT id FROM loads")).toEqual([]);

    const writer = await create(shipper, ["loads:write"]);
    const posted = await withToken(writer.token, "POST", "/api/loads", loadInput());
    expect(posted.status).toBe(201);
    expect(posted.json.title).toBe(loadInput().title);

    // Public routes need no scope.
    expect((await withToken(token, "GET", "/api/platform-stats")).status).toBe(200);
  });

  test("tokens cannot manage tokens: the token routes take a signed-in browser only", async () => {
    const { token, id } = await create(shipper, ["loads:read", "account:read"]);
    for (const [method, path, body] of [
      ["GET", "/api/tokens", undefined],
      ["POST", "/api/tokens", { name: "Another", scopes: ["loads:read"] }],
      ["DELETE", `/api/tokens/${id}`, undefined],
    ] as const) {
      const res = await withToken(token, method, path, body);
      expect(res.status).toBe(403);
      expect(res.json.messageId).toBe("error.tokens.sessionOnly");
    }
    expect(await t.rows("SELECT id FROM api_tokens WHERE id = ?", id)).toHaveLength(1);
  });

  test("another account's token is not found, and never listed", async () => {
    const { id } = await create(shipper, ["loads:read"]);
    const res = await other.del(`/api/tokens/${id}`);
    expect(res.status).toBe(404);
    expect(res.json.messageId).toBe("error.tokens.notFound");
    expect((await other.get("/api/tokens")).json).toEqual([]);
    expect(await t.rows("SELECT id FROM api_tokens WHERE id = ?", id)).toHaveLength(1);
  });

  test("signed out: 401 on every token route, and for an unknown or malformed bearer token", async () => {
    expect((await anon.get("/api/tokens")).status).toBe(401);
    expect((await anon.post("/api/tokens", { name: "x", scopes: ["loads:read"] })).status).toBe(401);
    expect((await anon.del("/api/tokens/1")).status).toBe(401);
    const { token } = await create(shipper, ["loads:read"]);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const bad of [forged, "mt_nothing", "not-a-token"]) {
      const res = await withToken(bad, "GET", "/api/loads/shipper");
      expect(res.status).toBe(401);
      expect(res.json.messageId).toBe("error.tokens.refused");
    }
  });

  test("bad input is a 400 naming the field, and nothing is written", async () => {
    const before = await t.rows("SELECT id FROM api_tokens");
    const noName = await shipper.post("/api/tokens", { name: "  ", scopes: ["loads:read"] });
    expect(noName.status).toBe(400);
    expect(noName.json.issues.map((i: { path: string }) => i.path)).toContain("name");
    const badScope = await shipper.post("/api/tokens", { name: "x", scopes: ["loads:everything"] });
    expect(badScope.status).toBe(400);
    expect(badScope.json.issues[0].path).toBe("scopes.0");
    const none = await shipper.post("/api/tokens", { name: "x", scopes: [] });
    expect(none.status).toBe(400);
    expect(none.json.issues[0].path).toBe("scopes");
    const badId = await shipper.del("/api/tokens/abc");
    expect(badId.status).toBe(400);
    expect(badId.json.message).toContain("id");
    expect(await t.rows("SELECT id FROM api_tokens")).toEqual(before);
  });

  test("cross-site rules: a bearer call needs no same-site origin, a cookie call still does", async () => {
    const { token } = await create(shipper, ["notifications:write"]);
    const evil = { Origin: "https://evil.example" };
    expect((await withToken(token, "POST", "/api/notifications/read-all", {}, evil)).status).toBe(200);
    const cookie = await shipper.post("/api/notifications/read-all", {}, evil);
    expect(cookie.status).toBe(403);
    expect(cookie.json.messageId).toBe("error.http.crossSite");
  });

  test("the last use is recorded; past the per-minute budget a 429 with Retry-After", async () => {
    const { token, id } = await create(shipper, ["loads:read"]);
    expect((await withToken(token, "GET", "/api/loads/shipper")).status).toBe(200);
    const listed = (await shipper.get("/api/tokens")).json.find((x: { id: number }) => x.id === id);
    expect(listed.lastUsedAt).not.toBeNull();
    // The budget is kept in the database for every process: spend it as another process would have (in a window an
    // hour ahead, so the minute turning during the test cannot reset it).
    await t.rows(
      "UPDATE api_tokens SET window_count = ?, window_start = ? WHERE id = ?",
      TOKEN_REQUESTS_PER_MINUTE,
      Date.now() + 3_600_000,
      id,
    );
    const limited = await withToken(token, "GET", "/api/loads/shipper");
    expect(limited.status).toBe(429);
    expect(limited.json.messageId).toBe("error.tokens.rateLimited");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    // Another token of the same account has its own budget.
    const second = await create(shipper, ["loads:read"]);
    expect((await withToken(second.token, "GET", "/api/loads/shipper")).status).toBe(200);
  });
});
