import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp } from "../../src/server/testing";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "./demo";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

test("demo accounts read money and distances as their region does: birr, euros or dollars; km/kg or mi/lb", async () => {
  const t = await createTestApp();
  await seedDemo(t.db);
  const seen: Record<string, { currency: string; units: string }> = {};
  for (const [i, u] of DEMO_USERS.entries()) {
    const c = createClient(t, `10.0.1.${i + 1}`);
    const signedIn = await c.post("/api/auth/login", { email: u.email, password: DEMO_PASSWORD });
    expect(signedIn.status).toBe(200);
    const me = await c.get("/api/auth/user");
    expect(me.status).toBe(200);
    seen[u.email] = { currency: me.json.user.currency, units: me.json.user.units };
  }
  const ethiopia = { currency: "ETB", units: "metric" };
  const europe = { currency: "EUR", units: "metric" };
  const us = { currency: "USD", units: "imperial" };
  expect(seen).toEqual({
    "abebe@demo.mytess.app": ethiopia,
    "chaltu@demo.mytess.app": ethiopia,
    "selam@demo.mytess.app": ethiopia,
    "anna@demo.mytess.app": europe,
    "lena@demo.mytess.app": europe,
    "mike@demo.mytess.app": us,
    "john@demo.mytess.app": us,
  });
});
