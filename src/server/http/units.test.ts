import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

// Kilometres and kilograms or miles and pounds: chosen for a new account from where it is made, changed in Settings
// (PUT /api/user/units), kept on the account for every door. Stored loads stay in miles and pounds.
setDefaultTimeout(60_000);

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const me = async (c: ReturnType<typeof createClient>) => (await c.get("/api/auth/user")).json.user;

describe("a new account's language, currency and units", () => {
  test("an Amharic or Afaan Oromo visitor gets kilometres, kilograms and birr in their language", async () => {
    for (const language of ["am", "om"]) {
      // The request carries the language the site was shown in (its cookie), as the web app sends it.
      const d = createClient(t);
      const res = await d.post(
        "/api/auth/register",
        {
          email: `${language}.${Date.now()}@example.com`,
          password: "correct-horse-battery",
          firstName: "Chaltu",
          lastName: "Gemechu",
          userType: "driver",
        },
        { Cookie: `mytess_lang=${language}` },
      );
      expect(res.status).toBe(201);
      expect(res.json.user).toMatchObject({ language, currency: "ETB", units: "metric" });
    }
  });

  test("a device in Ethiopia (its time zone) gets birr and metric units even in English", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper", {});
    expect(await me(c)).toMatchObject({ language: "en", currency: "USD", units: "imperial" });
    const et = createClient(t);
    const res = await et.post(
      "/api/auth/register",
      {
        email: `addis.${Date.now()}@example.com`,
        password: "correct-horse-battery",
        firstName: "Selam",
        lastName: "Bekele",
        userType: "shipper",
      },
      { Cookie: "mytess_tz=Africa%2FAddis_Ababa", "Accept-Language": "en-US,en;q=0.9" },
    );
    expect(res.json.user).toMatchObject({ language: "en", currency: "ETB", units: "metric" });
  });

  test("the United States get miles and pounds; another known country kilometres (with US dollars)", async () => {
    const body = (email: string) => ({
      email,
      password: "correct-horse-battery",
      firstName: "Sam",
      lastName: "Lee",
      userType: "driver",
    });
    const us = await createClient(t).post("/api/auth/register", body(`us.${Date.now()}@example.com`), {
      Cookie: "mytess_tz=America%2FChicago",
      "Accept-Language": "en-GB",
    });
    expect(us.json.user).toMatchObject({ currency: "USD", units: "imperial" });
    const gb = await createClient(t).post("/api/auth/register", body(`gb.${Date.now()}@example.com`), {
      "Accept-Language": "en-GB,en;q=0.8",
    });
    expect(gb.json.user).toMatchObject({ currency: "USD", units: "metric" });
  });
});

describe("PUT /api/user/units", () => {
  test("changes the caller's units, which the account then answers with on every door", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    expect((await me(c)).units).toBe("imperial");
    const res = await c.put("/api/user/units", { units: "metric" });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ units: "metric", userType: "driver" });
    expect((await me(c)).units).toBe("metric");
    // The web app's door: the same procedure through tRPC.
    const trpc = await c.post("/trpc/user.updateUnits", { units: "imperial" });
    expect(trpc.status).toBe(200);
    expect(trpc.json.result.data.user.units).toBe("imperial");
    expect((await me(c)).units).toBe("imperial");
  });

  test("changes only the caller's own account", async () => {
    const a = createClient(t);
    const b = createClient(t, "10.0.0.2");
    await registerUser(a, "driver");
    await registerUser(b, "shipper");
    expect((await a.put("/api/user/units", { units: "metric" })).status).toBe(200);
    expect((await me(a)).units).toBe("metric");
    expect((await me(b)).units).toBe("imperial");
    // There is no account id to give: a body naming another user changes nothing of theirs.
    const other = (await me(b)).id;
    await a.put("/api/user/units", { units: "imperial", userId: other });
    expect((await me(b)).units).toBe("imperial");
    expect((await me(a)).units).toBe("imperial");
  });

  test("needs a signed-in user", async () => {
    const res = await createClient(t).put("/api/user/units", { units: "metric" });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("UNAUTHORIZED");
  });

  test("anything but metric or imperial is a 400 naming the field, and nothing changes", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    for (const body of [{ units: "nautical" }, { units: 1 }, {}, { units: "METRIC" }]) {
      const res = await c.put("/api/user/units", body);
      expect(res.status).toBe(400);
      expect(res.json.issues[0].path).toBe("units");
      expect(res.json.issues[0].message).toContain("metric, imperial");
    }
    expect((await me(c)).units).toBe("imperial");
  });
});
