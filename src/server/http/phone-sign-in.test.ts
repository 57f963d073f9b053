// Signing up and in with a phone number and an SMS code (drivers without email), through the REST routes, the job
// queue and the SMS emulators (read over HTTP, as a phone would get them); and an email added to such an account with
// a link read from a real SMTP server.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMailCatcher, type TMailCatcher } from "../../../emulators/mail/catcher";
import { startSmsEmulators, type TSmsEmulators } from "../../../emulators/sms/server";
import { loadConfig } from "../config";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { EMAIL_LINKS_PER_WINDOW } from "../modules/accounts/email-verification";
import { ACCOUNTS_JOBS } from "../modules/accounts/jobs";
import { PHONE_START_PER_ADDRESS, startPhoneSignIn } from "../modules/accounts/phone-sign-in";
import { LOGIN_LIMITS } from "../modules/accounts/rate-limit";
import { housekeeping } from "../modules/platform/housekeeping";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);

const BASE = "https://mytess.example";
const ET = "+251911234567";
const ET2 = "+251922345678";

let emu: TSmsEmulators;
let mail: TMailCatcher;
let t: TTestApp;
beforeAll(async () => {
  emu = startSmsEmulators();
  mail = await startMailCatcher();
});
afterAll(async () => {
  emu.stop();
  await mail.close();
});
beforeEach(async () => {
  t = await createTestApp({
    sms: loadConfig({ ...emu.env() }).sms,
    mail: { smtpUrl: mail.url, from: "MyTess <no-reply@mytess.example>", sandboxDir: null },
  });
});
afterEach(() => t.close());

const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs(ACCOUNTS_JOBS, t.services, BASE),
    schedules: [],
    autoStart: false,
  });

type TSms = { id: string; provider: string; from: string; to: string; body: string };
const inbox = async (phone: string): Promise<TSms[]> =>
  (await fetch(`${emu.urls.twilio}/_emulator/messages?to=${encodeURIComponent(phone)}`)).json() as Promise<TSms[]>;
const codeIn = (sms: TSms | undefined) => {
  const m = /\b(\d{6})\b/.exec(sms?.body ?? "");
  if (!m) throw new Error(`no code in: ${sms?.body}`);
  return m[1]!;
};
const count = async (sql: string, ...args: (string | number)[]) =>
  (await t.rows<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${sql}`, ...args))[0]!.n;

/** Asks for a sign-in code for `phone` and reads it from the phone's inbox. */
const codeFor = async (c: ReturnType<typeof createClient>, phone: string, body: Record<string, unknown> = {}) => {
  const before = (await inbox(phone)).length;
  const asked = await c.post("/api/auth/phone/start", { phone, ...body });
  expect(asked.status).toBe(202);
  expect(asked.json).toEqual({ ok: true });
  expect(await worker().runOnce()).toBe(1);
  const got = await inbox(phone);
  expect(got.length).toBe(before + 1);
  return { code: codeIn(got[before]), sms: got[before]! };
};
const newDriver = { firstName: "Abebe", lastName: "Kebede", userType: "driver" };

describe("POST /api/auth/phone/start and /verify", () => {
  test("a driver without email signs up with a code, in the page's language, then signs in again with a new code", async () => {
    const c = createClient(t);
    const { code, sms } = await (async () => {
      const before = (await inbox(ET)).length;
      const asked = await c.post("/api/auth/phone/start", { phone: "0911 23 45 67" }, { "Accept-Language": "am" });
      expect(asked.status).toBe(202);
      expect(await worker().runOnce()).toBe(1);
      const got = (await inbox(ET))[before]!;
      return { code: codeIn(got), sms: got };
    })();
    expect(sms.provider).toBe("afromessage");
    // A new number has no account's language: the SMS is in the language of the page that asked.
    expect(sms.body).not.toContain("MyTess sign-in code");
    // The code is nowhere in the database: the row keeps an HMAC, the job's payload no code.
    expect(await count("phone_codes WHERE code_hash = ?", code)).toBe(0);
    expect(await count("jobs WHERE CAST(payload AS TEXT) LIKE ?", `%${code}%`)).toBe(0);

    // A right code for a number without an account asks for the new account's details, and stays usable.
    const needs = await c.post("/api/auth/phone/verify", { phone: ET, code });
    expect(needs.status).toBe(400);
    expect(needs.json.issues[0].path).toBe("firstName");
    expect((await c.get("/api/auth/user")).status).toBe(401);
    const partial = await c.post("/api/auth/phone/verify", { phone: ET, code, firstName: "Abebe", lastName: "Kebede" });
    expect(partial.status).toBe(400);
    expect(partial.json.issues[0].path).toBe("userType");

    const made = await c.post(
      "/api/auth/phone/verify",
      { phone: "+251 911 234 567", code, ...newDriver },
      { "Accept-Language": "am" },
    );
    expect(made.status).toBe(200);
    expect(made.json.user).toMatchObject({ email: null, phone: ET, firstName: "Abebe", userType: "driver" });
    const me = await c.get("/api/auth/user");
    expect(me.json.user).toMatchObject({ id: made.json.user.id, email: null, phone: ET, language: "am" });
    // Single use.
    expect(
      (await createClient(t, "10.0.0.8").post("/api/auth/phone/verify", { phone: ET, code, ...newDriver })).status,
    ).toBe(400);

    // Signing in again from another device: the same account, no details needed (any given are ignored).
    const phone2 = createClient(t, "10.0.0.9");
    const again = await codeFor(phone2, ET);
    expect(again.sms.body).toStartWith("የMyTess"); // the account's language now
    const signedIn = await phone2.post("/api/auth/phone/verify", {
      phone: ET,
      code: again.code,
      firstName: "Other",
      lastName: "Name",
      userType: "shipper",
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.user).toMatchObject({ id: made.json.user.id, firstName: "Abebe", userType: "driver" });
    expect(await count("users WHERE phone = ?", ET)).toBe(1);
    // The account has no password: signing in by email or password is no way in.
    expect(await count("users WHERE phone = ? AND password_hash IS NULL AND email IS NULL", ET)).toBe(1);
  });

  test("an email account with a confirmed phone signs in with a code to its number; several phone-only accounts coexist", async () => {
    const c = createClient(t);
    const user = await registerUser(c, "shipper");
    const before = (await inbox(ET)).length;
    expect((await c.post("/api/user/phone", { phone: ET })).status).toBe(202);
    await worker().runOnce();
    expect(
      (await c.post("/api/user/phone/verify", { phone: ET, code: codeIn((await inbox(ET))[before]) })).status,
    ).toBe(200);

    const d = createClient(t, "10.0.1.2");
    const { code } = await codeFor(d, ET);
    const res = await d.post("/api/auth/phone/verify", { phone: ET, code });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ id: user.id, email: user.email });

    // Two accounts without email (the unique index holds for emails that are there only).
    const e = createClient(t, "10.0.1.3");
    const second = await codeFor(e, ET2);
    expect((await e.post("/api/auth/phone/verify", { phone: ET2, code: second.code, ...newDriver })).status).toBe(200);
    const f = createClient(t, "10.0.1.4");
    const third = await codeFor(f, "+14155550100");
    expect(
      (await f.post("/api/auth/phone/verify", { phone: "+14155550100", code: third.code, ...newDriver })).status,
    ).toBe(200);
    expect(await count("users WHERE email IS NULL")).toBe(2);
  });

  test("asking is answered alike for any number; a code works for its number only; wrong codes are throttled like sign-in", async () => {
    const c = createClient(t, "10.0.2.1");
    const { code } = await codeFor(c, ET);
    // Another number's code proves nothing.
    const other = await c.post("/api/auth/phone/verify", { phone: ET2, code, ...newDriver });
    expect(other.status).toBe(400);
    expect(other.json.issues).toEqual([
      { path: "code", message: "This code is wrong, used or expired. Check the SMS or ask for a new code." },
    ]);
    // Guessing from one address stops after the sign-in allowance, with a Retry-After, right code or not.
    const wrong = code === "000000" ? "111111" : "000000";
    const g = createClient(t, "10.0.2.2");
    for (let i = 0; i < LOGIN_LIMITS.maxPerAccountAddress; i++)
      expect((await g.post("/api/auth/phone/verify", { phone: ET, code: wrong })).status).toBe(400);
    const limited = await g.post("/api/auth/phone/verify", { phone: ET, code: wrong });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await g.post("/api/auth/phone/verify", { phone: ET, code, ...newDriver })).status).toBe(429);
    // The code took its 5 tries (one per wrong guess let through): it is spent.
    expect((await c.post("/api/auth/phone/verify", { phone: ET, code, ...newDriver })).status).toBe(400);

    // Asking is limited per address (each SMS costs), with the same answer for every number until then.
    const s = createClient(t, "10.0.2.3");
    for (let i = 0; i < PHONE_START_PER_ADDRESS; i++)
      expect(
        (await s.post("/api/auth/phone/start", { phone: `+2519110000${String(i).padStart(2, "0")}` })).status,
      ).toBe(202);
    const tooMany = await s.post("/api/auth/phone/start", { phone: ET2 });
    expect(tooMany.status).toBe(429);
    expect(Number(tooMany.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a number gets at most 5 codes an hour, whoever asks: the 6th ask is told how long to wait", async () => {
    for (let i = 0; i < 5; i++)
      expect((await createClient(t, `10.0.3.${i + 1}`).post("/api/auth/phone/start", { phone: ET })).status).toBe(202);
    for (const ip of ["10.0.3.6", "10.0.3.7"]) {
      const refused = await createClient(t, ip).post("/api/auth/phone/start", { phone: "0911 23 45 67" });
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe("This number has had 5 codes in the last hour. Try again in 60 minutes.");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    }
    // In the page's language, like every error.
    const am = await createClient(t, "10.0.3.8").post(
      "/api/auth/phone/start",
      { phone: ET },
      { "Accept-Language": "am" },
    );
    expect(am.status).toBe(429);
    expect(am.json.message).not.toContain("This number");
    expect(await worker().runOnce()).toBe(5);
    expect(await count("phone_codes WHERE phone = ?", ET)).toBe(5);
    // Another number is not held back; the refused asks enqueued nothing.
    expect((await createClient(t, "10.0.3.9").post("/api/auth/phone/start", { phone: ET2 })).status).toBe(202);
    expect(await worker().runOnce()).toBe(1);

    // The same answer for a number that has an account: it says nothing about accounts.
    const d = createClient(t, "10.0.3.10");
    const { code } = await codeFor(d, "+251933333333");
    expect((await d.post("/api/auth/phone/verify", { phone: "+251933333333", code, ...newDriver })).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await d.post("/api/auth/phone/start", { phone: "+251933333333" })).status).toBe(202);
    const held = await createClient(t, "10.0.3.11").post("/api/auth/phone/start", { phone: "+251933333333" });
    expect(held.status).toBe(429);
    expect(held.json.message).toBe("This number has had 5 codes in the last hour. Try again in 60 minutes.");

    // An hour after the first ask the number may ask again; housekeeping keeps the asks' rows that long.
    const hour = 60 * 60_000;
    // Half an hour on, housekeeping clears the 15-minute rows (the addresses' asks) but keeps the number's.
    expect((await housekeeping(t.db, Date.now() + 30 * 60_000)).attempts).toBeGreaterThan(0);
    expect(await count("login_failures WHERE key LIKE ?", `hour:%${ET}`)).toBe(5);
    expect(await count("login_failures WHERE key NOT LIKE ?", "hour:%")).toBe(0);
    // The new ask is made an hour on; housekeeping runs more than an hour after it (a row exactly an hour old stays).
    const later = Date.now() + hour + 1000;
    await startPhoneSignIn(t.db, ET, "10.0.3.12", "en", later);
    await housekeeping(t.db, later + hour + 1000);
    expect(await count("login_failures WHERE key LIKE ?", "hour:%")).toBe(0);
  });

  test("bad input: 400 naming the field, nothing sent", async () => {
    const c = createClient(t);
    for (const [body, path] of [
      [{}, "phone"],
      [{ phone: "12345" }, "phone"],
      [{ phone: 911234567 }, "phone"],
    ] as const) {
      const res = await c.post("/api/auth/phone/start", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    for (const [body, path] of [
      [{ phone: ET }, "code"],
      [{ phone: ET, code: "12345" }, "code"],
      [{ code: "123456" }, "phone"],
      [{ phone: ET, code: "123456", userType: "admin" }, "userType"],
      [{ phone: ET, code: "123456", firstName: " " }, "firstName"],
    ] as const) {
      const res = await c.post("/api/auth/phone/verify", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    expect(await count("jobs")).toBe(0);
  });
});

describe("POST /api/user/email and /api/auth/email/verify", () => {
  const linkIn = (text: string) => {
    const m = /https:\/\/mytess\.example\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text);
    if (!m) throw new Error(`no link in: ${text}`);
    return m[1]!;
  };

  test("a phone account adds an email, proven by the mailed link; the address then signs in to reset", async () => {
    const c = createClient(t);
    const { code } = await codeFor(c, ET);
    const me = (await c.post("/api/auth/phone/verify", { phone: ET, code, ...newDriver })).json.user;
    const before = mail.mails.length;
    const asked = await c.post("/api/user/email", { email: "Abebe@Example.com" });
    expect(asked.status).toBe(202);
    expect(await worker().runOnce()).toBe(1);
    const got = await mail.waitFor("abebe@example.com", { after: before });
    expect(got.subject).toBe("Confirm your email for MyTess");
    const token = linkIn(got.text);
    expect(await count("email_verifications WHERE token_hash = ?", token)).toBe(0);
    // Not the account's until the link is used.
    expect((await c.get("/api/auth/user")).json.user.email).toBeNull();

    // The link is the proof: it works from a browser that is not signed in, once.
    const anon = createClient(t, "10.0.4.4");
    const ok = await anon.post("/api/auth/email/verify", { token });
    expect(ok.status).toBe(200);
    expect((await anon.get("/api/auth/user")).status).toBe(401);
    expect((await c.get("/api/auth/user")).json.user).toMatchObject({
      id: me.id,
      email: "abebe@example.com",
      phone: ET,
    });
    const again = await anon.post("/api/auth/email/verify", { token });
    expect(again.status).toBe(400);
    expect(again.json.issues[0].path).toBe("token");
  });

  test("another account's address is a 409; signed out 401; bad input 400; asking is limited", async () => {
    const owner = await registerUser(createClient(t, "10.0.5.1"), "shipper");
    const c = createClient(t);
    const { code } = await codeFor(c, ET);
    expect((await c.post("/api/auth/phone/verify", { phone: ET, code, ...newDriver })).status).toBe(200);
    const taken = await c.post("/api/user/email", { email: owner.email });
    expect(taken.status).toBe(409);
    expect(taken.json.issues[0].path).toBe("email");

    expect((await createClient(t, "10.0.5.2").post("/api/user/email", { email: "x@example.com" })).status).toBe(401);
    for (const [body, path] of [
      [{}, "email"],
      [{ email: "not-an-address" }, "email"],
    ] as const) {
      const res = await c.post("/api/user/email", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    for (const body of [{}, { token: "short" }]) {
      const res = await c.post("/api/auth/email/verify", body);
      expect(res.status).toBe(400);
      expect(res.json.issues[0].path).toBe("token");
    }
    for (let i = 0; i < EMAIL_LINKS_PER_WINDOW; i++)
      expect((await c.post("/api/user/email", { email: `a${i}@example.com` })).status).toBe(202);
    expect((await c.post("/api/user/email", { email: "late@example.com" })).status).toBe(429);
  });
});

describe("POST /api/auth/login with a phone number and a password", () => {
  /** A phone-only driver signed up by code; the client that did it. */
  const phoneDriver = async (ip: string, phone = ET) => {
    const c = createClient(t, ip);
    const { code } = await codeFor(c, phone);
    const made = await c.post("/api/auth/phone/verify", { phone, code, ...newDriver });
    expect(made.status).toBe(200);
    return { c, id: made.json.user.id as number };
  };
  /** Sets the account's password with "Forgot password?" by SMS. */
  const resetBySms = async (phone: string, password: string) => {
    const before = (await inbox(phone)).length;
    const anon = createClient(t, "10.0.7.250");
    expect((await anon.post("/api/auth/password/forgot", { phone })).status).toBe(202);
    expect(await worker().runOnce()).toBe(1);
    const code = codeIn((await inbox(phone))[before]);
    const reset = await anon.post("/api/auth/password/reset", { phone, code, password });
    expect(reset.status).toBe(200);
    return reset.json.user.id as number;
  };
  const INVALID = "Invalid phone number or password";

  test("a phone-only account has no password until a reset by SMS sets one; then the number and password sign in", async () => {
    const { id } = await phoneDriver("10.0.7.1");
    // No password yet: nothing opens it, and the answer is the one an unknown number gets.
    const none = await createClient(t, "10.0.7.2").post("/api/auth/login", { phone: ET, password: "any-password-1" });
    expect(none.status).toBe(401);
    expect(none.json.message).toBe(INVALID);
    expect(none.headers.get("set-cookie")).toBeNull();

    expect(await resetBySms(ET, "kebede-truck-2026")).toBe(id);
    // The number as people write it in Ethiopia, or in E.164.
    for (const [ip, written] of [
      ["10.0.7.3", "0911 23 45 67"],
      ["10.0.7.4", "+251911234567"],
    ] as const) {
      const c = createClient(t, ip);
      const res = await c.post("/api/auth/login", { phone: written, password: "kebede-truck-2026" });
      expect(res.status).toBe(200);
      expect(res.json.user).toMatchObject({ id, email: null, phone: ET, userType: "driver" });
      expect((await c.get("/api/auth/user")).json.user.id).toBe(id);
    }
    // A wrong password and an unknown number: the same 401, no cookie.
    for (const body of [
      { phone: ET, password: "wrong-password" },
      { phone: "+251977777777", password: "kebede-truck-2026" },
    ]) {
      const res = await createClient(t, "10.0.7.5").post("/api/auth/login", body);
      expect(res.status).toBe(401);
      expect(res.json.message).toBe(INVALID);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    // In the page's language.
    const am = await createClient(t, "10.0.7.6").post(
      "/api/auth/login",
      { phone: ET, password: "wrong-password" },
      { "Accept-Language": "am" },
    );
    expect(am.status).toBe(401);
    expect(am.json.message).not.toBe(INVALID);
  });

  test("another account: a password opens only the account whose number it is", async () => {
    const a = await phoneDriver("10.0.8.1", ET);
    await resetBySms(ET, "password-of-abebe");
    // An email account that confirmed another number.
    const bc = createClient(t, "10.0.8.2");
    const b = await registerUser(bc, "shipper");
    const before = (await inbox(ET2)).length;
    expect((await bc.post("/api/user/phone", { phone: ET2 })).status).toBe(202);
    await worker().runOnce();
    expect(
      (await bc.post("/api/user/phone/verify", { phone: ET2, code: codeIn((await inbox(ET2))[before]) })).status,
    ).toBe(200);
    const login = (ip: string, phone: string, password: string) =>
      createClient(t, ip).post("/api/auth/login", { phone, password });
    expect((await login("10.0.8.3", ET, "correct-horse-battery")).status).toBe(401);
    expect((await login("10.0.8.4", ET2, "password-of-abebe")).status).toBe(401);
    const asB = await login("10.0.8.5", ET2, "correct-horse-battery");
    expect(asB.status).toBe(200);
    expect(asB.json.user).toMatchObject({ id: b.id, email: b.email, phone: ET2 });
    const asA = await login("10.0.8.6", ET, "password-of-abebe");
    expect(asA.json.user.id).toBe(a.id);
    // B's email still signs B in; it never reaches A.
    expect(
      (await createClient(t, "10.0.8.7").post("/api/auth/login", { email: b.email, password: "correct-horse-battery" }))
        .json.user.id,
    ).toBe(b.id);
  });

  test("throttled like email: one address is locked out of a number after 5 failures, also for codes; the owner elsewhere is not", async () => {
    await phoneDriver("10.0.9.1");
    await resetBySms(ET, "right-password-1");
    const attacker = createClient(t, "10.0.9.9");
    for (let i = 0; i < LOGIN_LIMITS.maxPerAccountAddress; i++)
      expect((await attacker.post("/api/auth/login", { phone: ET, password: `bad-${i}-password` })).status).toBe(401);
    const blocked = await attacker.post("/api/auth/login", { phone: "0911234567", password: "right-password-1" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    // The number's keys are the code sign-in's too: that address gets no code tries either.
    expect((await attacker.post("/api/auth/phone/verify", { phone: ET, code: "123456" })).status).toBe(429);
    const owner = await createClient(t, "10.0.9.2").post("/api/auth/login", {
      phone: ET,
      password: "right-password-1",
    });
    expect(owner.status).toBe(200);

    // Many numbers from one address: refused past the per-address allowance, for every number.
    const sprayer = createClient(t, "10.0.9.10");
    for (let i = 0; i < LOGIN_LIMITS.maxPerAddress; i++)
      expect(
        (
          await sprayer.post("/api/auth/login", {
            phone: `+2519120000${String(i).padStart(2, "0")}`,
            password: "password1",
          })
        ).status,
      ).toBe(401);
    expect((await sprayer.post("/api/auth/login", { phone: ET, password: "right-password-1" })).status).toBe(429);
  }, 60_000);

  test("bad input: 400 naming the field, nobody signed in", async () => {
    const c = createClient(t, "10.0.10.1");
    for (const [body, path] of [
      [{ password: "password1" }, "email"],
      [{ phone: "12345", password: "password1" }, "phone"],
      [{ phone: 911234567, password: "password1" }, "phone"],
      [{ phone: ET }, "password"],
      [{ phone: ET, password: "" }, "password"],
      [{ phone: ET, email: "a@example.com", password: "password1" }, "phone"],
    ] as const) {
      const res = await c.post("/api/auth/login", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(await count("login_failures")).toBe(0);
  });
});
