import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startPaymentEmulators } from "../../../../emulators/payments/server";
import { API_SCOPES, type TApiScope } from "../../../shared/api-scopes";
import { paymentsFromEnv } from "../../integrations/payments/registry";
import { MAX_TOKENS_PER_USER } from "../../modules/tokens/tokens";
import { createClient, createTestApp, registerUser, type TTestApp } from "../../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(180_000);

// Every operation of the published document, called with API tokens: a token holding exactly the operation's scope
// is let through (the route's own answer, whatever the domain says of an empty body or an unknown id), a token
// holding every other scope is refused with 403 naming the missing one, and cookie-only routes refuse every token.

type TOp = { operationId: string; security: Record<string, string[]>[]; "x-scope"?: TApiScope };
type TDoc = { paths: Record<string, Record<string, TOp>> };

let t: TTestApp;
let doc: TDoc;
/** Per user kind, a token per scope holding that scope only. */
const exact: Record<"shipper" | "driver", Partial<Record<TApiScope, string>>> = { shipper: {}, driver: {} };
/** A token per scope holding every scope but that one. */
const allBut: Partial<Record<TApiScope, string>> = {};

const makeToken = async (client: ReturnType<typeof createClient>, scopes: readonly string[]) => {
  const res = await client.post("/api/tokens", { name: `test ${scopes.length}`, scopes });
  expect(res.status).toBe(201);
  return (res.json as { token: string }).token;
};

// The payment providers' Sandboxes, so that routes which ask them (payout onboarding, Chapa's banks) answer for real.
const emu = startPaymentEmulators();

beforeAll(async () => {
  t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
  // An account holds at most MAX_TOKENS_PER_USER tokens, fewer than the scopes: each kind of user is several accounts.
  let ip = 0;
  const accounts = (kind: "shipper" | "driver") => {
    let client: ReturnType<typeof createClient> | null = null;
    let held = 0;
    return async () => {
      if (!client || held === MAX_TOKENS_PER_USER) {
        client = createClient(t, `10.92.1.${++ip}`);
        await registerUser(client, kind);
        held = 0;
      }
      held++;
      return client;
    };
  };
  const shipper = accounts("shipper");
  const driver = accounts("driver");
  const other = accounts("shipper");
  for (const scope of API_SCOPES) {
    exact.shipper[scope] = await makeToken(await shipper(), [scope]);
    exact.driver[scope] = await makeToken(await driver(), [scope]);
    allBut[scope] = await makeToken(
      await other(),
      API_SCOPES.filter((s) => s !== scope),
    );
  }
  const res = await createClient(t, "10.92.0.4").get("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = res.json as TDoc;
});
afterAll(async () => {
  await t.close();
  emu.stop();
});

/** A request as an outside system sends it: the bearer token, no cookie; ids of records that do not exist. */
const call = async (token: string, method: string, path: string) => {
  const url = path.replace(/\{[^}]+\}/g, "987654");
  const body = method === "get" ? undefined : "{}";
  const res = await t.app.handle(
    new Request(`http://localhost${url}`, {
      method: method.toUpperCase(),
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body,
    }),
  );
  const text = await res.text();
  let json: { messageId?: string; message?: string } | null = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, json };
};

const TOKEN_REFUSALS = ["error.tokens.missingScope", "error.tokens.sessionOnly", "error.tokens.refused"];

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe("every documented operation, called with API tokens", () => {
  test("the document's scoped operations are the REST routes' scopes, and each is tried", () => {
    const scoped = operations().filter((o) => o.op["x-scope"]);
    expect(scoped.length).toBeGreaterThan(60);
    for (const { op } of scoped) expect(op.security).toEqual([{ session: [] }, { bearer: [op["x-scope"]!] }]);
  });

  test("a token with exactly the operation's scope gets the route's own answer, never 401 or a token refusal", async () => {
    const wrong: string[] = [];
    for (const { path, method, op } of operations()) {
      const scope = op["x-scope"];
      if (!scope) continue;
      for (const kind of ["shipper", "driver"] as const) {
        const res = await call(exact[kind][scope]!, method, path);
        if (res.status === 401 || res.status >= 500 || TOKEN_REFUSALS.includes(res.json?.messageId ?? ""))
          wrong.push(`${method.toUpperCase()} ${path} (${scope}, ${kind}): ${res.status} ${JSON.stringify(res.json)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("a token holding every other scope is refused with 403 naming the missing one", async () => {
    const wrong: string[] = [];
    for (const { path, method, op } of operations()) {
      const scope = op["x-scope"];
      if (!scope) continue;
      const res = await call(allBut[scope]!, method, path);
      if (
        res.status !== 403 ||
        res.json?.messageId !== "error.tokens.missingScope" ||
        !res.json.message?.includes(scope)
      )
        wrong.push(`${method.toUpperCase()} ${path} (${scope}): ${res.status} ${JSON.stringify(res.json)}`);
    }
    expect(wrong).toEqual([]);
  });

  test("routes for the browser's session only refuse every token; public routes take any", async () => {
    const token = exact.shipper["loads:read"]!;
    const sessionOnly = operations().filter(
      (o) => !o.op["x-scope"] && JSON.stringify(o.op.security) === JSON.stringify([{ session: [] }]),
    );
    expect(sessionOnly.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toContain("POST /api/tokens");
    for (const { path, method, op } of sessionOnly) {
      const res = await call(token, method, path);
      // Routes outside the generated adapter that read a user take no token at all; signing out and the board's
      // OAuth return only act on the cookie they are sent with.
      if (
        op.operationId.startsWith("documents.") ||
        op.operationId === "verification.upload" ||
        op.operationId === "verification.open" ||
        ["live", "rateConfirmations.pdf", "payments.receipt"].includes(op.operationId)
      )
        expect([401, 403], `${method} ${path}`).toContain(res.status);
      else if (op.operationId !== "logout" && op.operationId !== "loadboard123Callback")
        expect(res.json?.messageId, `${method} ${path}`).toBe("error.tokens.sessionOnly");
    }
    const open = operations().filter((o) => !o.op["x-scope"] && o.op.security.length === 0);
    expect(open.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toContain("GET /api/platform-stats");
    for (const { path, method } of open.filter((o) => o.method === "get" && !o.path.includes("webhook"))) {
      const res = await call(token, method, path);
      expect(res.status, `${method} ${path}`).not.toBe(401);
      expect(TOKEN_REFUSALS, `${method} ${path}`).not.toContain(res.json?.messageId ?? "");
    }
  });
});
