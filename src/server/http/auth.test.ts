import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SESSION_COOKIE } from "../../shared/constants";
import { createClient, createTestApp, registerUser, type TTestApp, uniqueEmail } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const valid = () => ({
  email: uniqueEmail(),
  password: "correct-horse-battery",
  firstName: "Selam",
  lastName: "Bekele",
  userType: "shipper",
});

describe("POST /api/auth/register", () => {
  test("creates the account, signs it in and answers 201 with the user", async () => {
    const c = createClient(t);
    const input = valid();
    const res = await c.post("/api/auth/register", input);
    expect(res.status).toBe(201);
    expect(res.json.user).toMatchObject({
      email: input.email,
      firstName: "Selam",
      lastName: "Bekele",
      userType: "shipper",
      currency: "USD",
      language: "en",
      rating: 0,
      totalRatings: 0,
      profileImageUrl: null,
    });
    expect(res.json.user.passwordHash).toBeUndefined();
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain(`${SESSION_COOKIE}=`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Max-Age=2592000");
    expect(cookie).not.toContain("Secure");
    const me = await c.get("/api/auth/user");
    expect(me.status).toBe(200);
    expect(me.json.user.email).toBe(input.email);
  });

  test("sets Secure on the cookie behind HTTPS", async () => {
    const c = createClient(t);
    const res = await c.post("/api/auth/register", valid(), { "X-Forwarded-Proto": "https" });
    expect(res.headers.get("set-cookie")).toContain("Secure");
  });

  test("stores the password as an argon2id hash", async () => {
    const c = createClient(t);
    const input = valid();
    await c.post("/api/auth/register", input);
    const row = await t.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, input.email) });
    expect(row?.passwordHash?.startsWith("$argon2id$")).toBe(true);
    expect(row?.passwordHash).not.toContain(input.password);
  });

  test("a taken email is 409, whatever its case", async () => {
    const c = createClient(t);
    const input = valid();
    expect((await c.post("/api/auth/register", input)).status).toBe(201);
    const again = await createClient(t).post("/api/auth/register", { ...input, email: input.email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      message: "An account with this email already exists",
      code: "CONFLICT",
      messageId: "error.auth.emailTaken",
    });
  });

  test.each([
    ["email", { email: "not-an-email" }, "email must be a valid email address"],
    ["password", { password: "short" }, "password must be at least 8 characters"],
    ["firstName", { firstName: undefined }, "firstName is required"],
    ["lastName", { lastName: "  " }, "lastName is required"],
    ["userType", { userType: "admin" }, 'userType must be "driver" or "shipper"'],
  ])("an invalid %s is 400 naming the field", async (field, change, message) => {
    const c = createClient(t);
    const res = await c.post("/api/auth/register", { ...valid(), ...change });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("BAD_REQUEST");
    expect(res.json.message).toBe(message);
    expect(res.json.issues).toContainEqual({ path: field, message });
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("a body that is not JSON is 400", async () => {
    const res = await createClient(t).post("/api/auth/register", "{oops");
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("The request body must be valid JSON");
  });

  test("a new account starts the 6-month premium trial", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const res = await c.get("/api/subscription/status");
    expect(res.status).toBe(200);
    expect(res.json.subscriptionStatus).toBe("active");
    expect(res.json.trialStatus.isTrialActive).toBe(true);
    const days = (new Date(res.json.trialStatus.trialEndsAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(180);
    expect(days).toBeLessThan(185);
  });
});

describe("POST /api/auth/login", () => {
  test("the right password signs in with a cookie", async () => {
    const input = valid();
    await createClient(t).post("/api/auth/register", input);
    const c = createClient(t);
    const res = await c.post("/api/auth/login", { email: input.email.toUpperCase(), password: input.password });
    expect(res.status).toBe(200);
    expect(res.json.user.email).toBe(input.email);
    expect((await c.get("/api/auth/user")).status).toBe(200);
  });

  test("a wrong password or unknown email is 401 with the same message", async () => {
    const input = valid();
    await createClient(t).post("/api/auth/register", input);
    const wrong = await createClient(t).post("/api/auth/login", { email: input.email, password: "wrong-password" });
    expect(wrong.status).toBe(401);
    expect(wrong.json.message).toBe("Invalid email or password");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const unknown = await createClient(t).post("/api/auth/login", {
      email: "nobody@example.com",
      password: "whatever1",
    });
    expect(unknown.status).toBe(401);
    expect(unknown.json.message).toBe("Invalid email or password");
  });

  test("repeated failures on one account from one address lock that address out, not the owner elsewhere", async () => {
    const input = valid();
    await createClient(t).post("/api/auth/register", input);
    const attacker = createClient(t, "10.1.0.9");
    for (let i = 0; i < 5; i++) {
      const r = await attacker.post("/api/auth/login", { email: input.email, password: `bad-${i}-password` });
      expect(r.status).toBe(401);
    }
    const blocked = await attacker.post("/api/auth/login", { email: input.email, password: input.password });
    expect(blocked.status).toBe(429);
    expect(blocked.json.code).toBe("TOO_MANY_REQUESTS");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const owner = await createClient(t, "10.1.1.1").post("/api/auth/login", {
      email: input.email,
      password: input.password,
    });
    expect(owner.status).toBe(200);
  }, 30_000);

  test("many failures from one address are refused for other accounts too", async () => {
    const c = createClient(t, "10.9.9.9");
    for (let i = 0; i < 20; i++) {
      expect((await c.post("/api/auth/login", { email: `guess${i}@example.com`, password: "password1" })).status).toBe(
        401,
      );
    }
    const blocked = await c.post("/api/auth/login", { email: "another@example.com", password: "password1" });
    expect(blocked.status).toBe(429);
    const elsewhere = await createClient(t, "10.8.8.8").post("/api/auth/login", {
      email: "another@example.com",
      password: "password1",
    });
    expect(elsewhere.status).toBe(401);
  }, 60_000);
});

describe("sessions", () => {
  test("GET /api/auth/user is 401 without a session", async () => {
    const res = await createClient(t).get("/api/auth/user");
    expect(res.status).toBe(401);
  });

  test("GET /api/logout ends the session on the server, clears the cookie and goes to /", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    const stolen = c.cookie;
    const res = await c.get("/api/logout");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("set-cookie")).toContain("Max-Age=0");
    const replay = createClient(t);
    replay.cookie = stolen;
    expect((await replay.get("/api/auth/user")).status).toBe(401);
  });

  test("the session id is stored hashed, never as the cookie value", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const token = c.cookie.split("=")[1];
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const rows = await t.db.query.sessions.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0].idHash).not.toBe(token);
  });

  test("GET /api/login leads to the sign-in screen when no provider is configured", async () => {
    const res = await createClient(t).get("/api/login?returnTo=/driver");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/signin?returnTo=%2Fdriver");
  });
});

describe("cross-site requests", () => {
  test("a state-changing request from another site is refused and changes nothing", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const res = await c.put("/api/user/language", { language: "am" }, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("Cross-site request refused");
    expect((await c.get("/api/auth/user")).json.user.language).toBe("en");
    const trpc = await c.post("/trpc/user.updateLanguage", { language: "am" }, { Origin: "https://evil.example" });
    expect(trpc.status).toBe(403);
  });

  test("the same origin is accepted", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const res = await c.put("/api/user/language", { language: "am" }, { Origin: "http://localhost" });
    expect(res.status).toBe(200);
  });

  test("Sec-Fetch-Site cross-site without an Origin is refused", async () => {
    const res = await createClient(t).post("/api/auth/register", valid(), { "Sec-Fetch-Site": "cross-site" });
    expect(res.status).toBe(403);
  });
});

describe("language and currency", () => {
  test("accept the product's codes and persist them", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    expect((await c.put("/api/user/language", { language: "om" })).status).toBe(200);
    expect((await c.put("/api/user/currency", { currency: "ETB" })).status).toBe(200);
    const me = await c.get("/api/auth/user");
    expect(me.json.user.language).toBe("om");
    expect(me.json.user.currency).toBe("ETB");
  });

  test("refuse anything else with a 400 naming the field", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    const lang = await c.put("/api/user/language", { language: "fr" });
    expect(lang.status).toBe(400);
    expect(lang.json.issues[0].path).toBe("language");
    const cur = await c.put("/api/user/currency", { currency: "GBP" });
    expect(cur.status).toBe(400);
    expect(cur.json.issues[0].path).toBe("currency");
    const missing = await c.put("/api/user/currency", {});
    expect(missing.status).toBe(400);
    const me = await c.get("/api/auth/user");
    expect(me.json.user.currency).toBe("USD");
  });

  test("need a signed-in user", async () => {
    expect((await createClient(t).put("/api/user/language", { language: "am" })).status).toBe(401);
    expect((await createClient(t).put("/api/user/calendar", { calendar: "ethiopic" })).status).toBe(401);
  });
});

describe("calendar", () => {
  test("Gregorian by default; the Ethiopian calendar and time of day are kept on the account", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    expect((await c.get("/api/auth/user")).json.user).toMatchObject({ calendar: "gregorian", ethiopianTime: false });
    const res = await c.put("/api/user/calendar", { calendar: "ethiopic", ethiopianTime: true });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ calendar: "ethiopic", ethiopianTime: true });
    // The time of day is left as it is when only the calendar changes.
    await c.put("/api/user/calendar", { calendar: "gregorian" });
    expect((await c.get("/api/auth/user")).json.user).toMatchObject({ calendar: "gregorian", ethiopianTime: true });
  }, 30_000);

  test("anything else is a 400 naming the field, and nothing changes", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    const bad = await c.put("/api/user/calendar", { calendar: "julian" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("calendar");
    const badTime = await c.put("/api/user/calendar", { calendar: "ethiopic", ethiopianTime: "yes" });
    expect(badTime.json.issues[0].path).toBe("ethiopianTime");
    expect((await c.get("/api/auth/user")).json.user.calendar).toBe("gregorian");
  }, 30_000);
});

describe("server", () => {
  test("answers JSON 404 for an unknown API path", async () => {
    const res = await createClient(t).get("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: "Not found", code: "NOT_FOUND", messageId: "error.http.notFound" });
  });

  test("sends security headers", async () => {
    const res = await createClient(t).get("/api/platform-stats");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  test("platform stats are computed from the database", async () => {
    const c = createClient(t);
    await registerUser(c, "driver");
    await registerUser(createClient(t), "shipper");
    const res = await c.get("/api/platform-stats");
    expect(res.json).toEqual({
      totalLoads: 0,
      activeDrivers: 1,
      completedDeliveries: 0,
      countriesServed: 0,
      avgRating: 0,
      totalRevenue: 0,
    });
  });
});
