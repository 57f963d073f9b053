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
import { PHONE_START_PER_ADDRESS } from "../modules/accounts/phone-sign-in";
import { LOGIN_LIMITS } from "../modules/accounts/rate-limit";
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

  test("a number gets at most 5 codes an hour, whoever asks", async () => {
    for (let i = 0; i < 7; i++)
      expect((await createClient(t, `10.0.3.${i + 1}`).post("/api/auth/phone/start", { phone: ET })).status).toBe(202);
    expect(await worker().runOnce()).toBe(7);
    expect(await count("phone_codes WHERE phone = ?", ET)).toBe(5);
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
