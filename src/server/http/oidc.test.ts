import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startOidcEmulator } from "../../../emulators/oidc/server";
import { createClient, createTestApp, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

let emulator: Awaited<ReturnType<typeof startOidcEmulator>>;
let t: TTestApp;

beforeAll(async () => {
  emulator = await startOidcEmulator({ clientId: "mytess-test", clientSecret: "s3cret" });
  t = await createTestApp({ oidc: { issuer: emulator.issuer, clientId: "mytess-test", clientSecret: "s3cret" } });
});
afterAll(async () => {
  emulator.stop();
  await t.close();
});

/** Walks the browser's part: /api/login, the provider's form, back to /api/auth/callback. */
const signInThroughProvider = async (
  email: string,
  userType?: string,
  returnTo = "/shipper",
  names = { given: "Tigist", family: "Haile" },
) => {
  const c = createClient(t);
  const q = new URLSearchParams({ returnTo, ...(userType ? { userType } : {}) });
  const start = await c.get(`/api/login?${q}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin).toBe(emulator.issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("redirect_uri")).toBe("http://localhost/api/auth/callback");
  const form = new URLSearchParams(authorize.searchParams);
  form.set("email", email);
  form.set("given_name", names.given);
  form.set("family_name", names.family);
  const approved = await fetch(`${emulator.issuer}/authorize`, { method: "POST", body: form, redirect: "manual" });
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get("location")!);
  const done = await c.get(`${callback.pathname}${callback.search}`);
  return { c, done };
};

test("GET /api/login redirects to the provider and the callback signs the user in", async () => {
  const { c, done } = await signInThroughProvider("tigist@example.com", "driver");
  expect(done.status).toBe(302);
  expect(done.headers.get("location")).toBe("/shipper");
  const me = await c.get("/api/auth/user");
  expect(me.status).toBe(200);
  expect(me.json.user).toMatchObject({
    email: "tigist@example.com",
    firstName: "Tigist",
    lastName: "Haile",
    userType: "driver",
  });
});

test("signing in again reuses the linked account", async () => {
  await signInThroughProvider("repeat@example.com", "shipper");
  const { c } = await signInThroughProvider("repeat@example.com");
  const me = await c.get("/api/auth/user");
  expect(me.json.user.userType).toBe("shipper");
  const rows = await t.db.query.users.findMany({ where: (u, { eq }) => eq(u.email, "repeat@example.com") });
  expect(rows).toHaveLength(1);
});

test("a callback with a forged state is refused and signs nobody in", async () => {
  const c = createClient(t);
  const start = await c.get("/api/login");
  const authorize = new URL(start.headers.get("location")!);
  const form = new URLSearchParams(authorize.searchParams);
  form.set("email", "forged@example.com");
  form.set("state", "not-the-state");
  const approved = await fetch(`${emulator.issuer}/authorize`, { method: "POST", body: form, redirect: "manual" });
  const callback = new URL(approved.headers.get("location")!);
  const done = await c.get(`${callback.pathname}${callback.search}`);
  expect(done.status).toBe(401);
  expect((await c.get("/api/auth/user")).status).toBe(401);
});

test("a callback without the login cookie goes back to the sign-in screen", async () => {
  const res = await createClient(t).get("/api/auth/callback?code=x&state=y");
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/signin?error=expired");
});

test("the callback never sends the browser to another site, whatever returnTo said", async () => {
  for (const [i, returnTo] of ["/\\attacker.test/x", "/%09/attacker.test/x", "//attacker.test/x"].entries()) {
    const { done } = await signInThroughProvider(`redirect${i}@example.com`, "driver", returnTo);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
  }
});

test("a name from the provider that cannot be stored (a NUL character) is not used, and sign-in still works", async () => {
  const { c, done } = await signInThroughProvider("nul.name@example.com", "driver", "/shipper", {
    given: "Ti\u0000gist",
    family: "Haile\u0000",
  });
  expect(done.status).toBe(302);
  const me = await c.get("/api/auth/user");
  expect(me.status).toBe(200);
  // Without a usable given name the account takes the email's name, as for a provider that sends none.
  expect(me.json.user).toMatchObject({ email: "nul.name@example.com", firstName: "nul.name", lastName: "" });
});
