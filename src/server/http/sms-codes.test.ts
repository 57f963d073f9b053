// Codes by SMS, through the REST routes, the job queue and the Twilio and AfroMessage emulators (read over HTTP, as a
// phone would get them): adding a number to an account, and a password reset for an account with a number.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startSmsEmulators, type TSmsEmulators } from "../../../emulators/sms/server";
import { loadConfig } from "../config";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { ACCOUNTS_JOBS } from "../modules/accounts/jobs";
import { CODE_TRIES, CODES_PER_NUMBER_PER_HOUR, sendPhoneCode } from "../modules/accounts/phone-codes";
import { housekeeping } from "../modules/platform/housekeeping";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);

const BASE = "https://mytess.example";
const NEW_PASSWORD = "new-horse-battery-staple";
const ET = "+251911234567";

let emu: TSmsEmulators;
let t: TTestApp;
beforeAll(() => {
  emu = startSmsEmulators();
});
afterAll(() => emu.stop());
const appWith = (env: Record<string, string> = {}) => createTestApp({ sms: loadConfig({ ...emu.env(), ...env }).sms });
beforeEach(async () => {
  t = await appWith();
});
afterEach(() => t.close());

let clockShift = 0;
const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs(ACCOUNTS_JOBS, t.services, BASE),
    schedules: [],
    autoStart: false,
    clock: () => Date.now() + clockShift,
  });

type TSms = { id: string; provider: string; from: string; to: string; body: string };
/** What a phone got, read from the emulators over HTTP (both share one phone book). */
const inbox = async (phone: string): Promise<TSms[]> =>
  (await fetch(`${emu.urls.twilio}/_emulator/messages?to=${encodeURIComponent(phone)}`)).json() as Promise<TSms[]>;
const codeIn = (sms: TSms | undefined) => {
  const m = /\b(\d{6})\b/.exec(sms?.body ?? "");
  if (!m) throw new Error(`no code in: ${sms?.body}`);
  return m[1]!;
};
const count = async (sql: string, ...args: (string | number)[]) =>
  (await t.rows<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${sql}`, ...args))[0]!.n;

/** A driver whose account has `phone`, proven with the code sent to it. */
const driverWithPhone = async (phone: string, ip = "10.9.0.1") => {
  const c = createClient(t, ip);
  const user = await registerUser(c, "driver");
  const before = (await inbox(phone)).length;
  expect((await c.post("/api/user/phone", { phone })).status).toBe(202);
  expect(await worker().runOnce()).toBe(1);
  const code = codeIn((await inbox(phone))[before]);
  const ok = await c.post("/api/user/phone/verify", { phone, code });
  expect(ok.status).toBe(200);
  return { c, user };
};

describe("POST /api/user/phone and /api/user/phone/verify", () => {
  test("a driver adds an Ethiopian number with the code AfroMessage delivers; only the number's code, from that account, proves it", async () => {
    const c = createClient(t);
    const driver = await registerUser(c, "driver");
    const other = createClient(t, "10.0.0.2");
    await registerUser(other, "driver");

    const asked = await c.post("/api/user/phone", { phone: "0911 23 45 67" });
    expect(asked.status).toBe(202);
    expect(asked.json).toEqual({ ok: true });
    expect(await worker().runOnce()).toBe(1);
    const [sms] = await inbox(ET);
    expect(sms!.provider).toBe("afromessage");
    expect(sms!.from).toBe("MyTess");
    expect(sms!.body).toMatch(/^MyTess code to confirm this phone number: \d{6}\. It works for 30 minutes\./);
    const code = codeIn(sms);
    // The code is nowhere in the database: the row keeps an HMAC, the job's payload no code.
    expect(await count("phone_codes WHERE code_hash = ?", code)).toBe(0);
    expect(await count("jobs WHERE CAST(payload AS TEXT) LIKE ?", `%${code}%`)).toBe(0);
    expect((await t.rows<{ provider: string }>("SELECT provider FROM phone_codes"))[0]!.provider).toBe("afromessage");

    // Another account cannot use the code sent for this one (it was not asked for there).
    const stolen = await other.post("/api/user/phone/verify", { phone: ET, code });
    expect(stolen.status).toBe(400);
    expect(stolen.json.issues[0].path).toBe("code");
    expect((await other.get("/api/auth/user")).json.user.phone).toBeNull();

    const ok = await c.post("/api/user/phone/verify", { phone: "+251 911 234 567", code });
    expect(ok.status).toBe(200);
    expect(ok.json.user).toMatchObject({ id: driver.id, phone: ET });
    expect((await c.get("/api/auth/user")).json.user.phone).toBe(ET);
    // Once.
    expect((await c.post("/api/user/phone/verify", { phone: ET, code })).status).toBe(400);

    // The number is this account's now: another account asking for it is told so, and no SMS goes out.
    const taken = await other.post("/api/user/phone", { phone: ET });
    expect(taken.status).toBe(409);
    expect(taken.json.issues[0]).toEqual({ path: "phone", message: "Another account uses this phone number" });
    expect(await worker().runOnce()).toBe(0);
  });

  test("numbers outside Ethiopia go through Twilio, in the account's language", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper");
    expect((await c.put("/api/user/language", { language: "om" })).status).toBe(200);
    expect((await c.post("/api/user/phone", { phone: "+1 415 555 0100" })).status).toBe(202);
    await worker().runOnce();
    const [sms] = await inbox("+14155550100");
    expect(sms!.provider).toBe("twilio");
    expect(sms!.from).toBe("+15005550006");
    expect(sms!.body).not.toContain("MyTess code to confirm");
    expect((await c.post("/api/user/phone/verify", { phone: "+14155550100", code: codeIn(sms) })).status).toBe(200);
  });

  test("signed out: 401; bad input: 400 naming the field, nothing sent", async () => {
    const anon = createClient(t);
    expect((await anon.post("/api/user/phone", { phone: ET })).status).toBe(401);
    expect((await anon.post("/api/user/phone/verify", { phone: ET, code: "123456" })).status).toBe(401);
    const c = createClient(t, "10.0.0.3");
    await registerUser(c, "driver");
    for (const [body, path] of [
      [{}, "phone"],
      [{ phone: "12345" }, "phone"],
      [{ phone: "0911 23" }, "phone"],
      [{ phone: 911234567 }, "phone"],
    ] as const) {
      const res = await c.post("/api/user/phone", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    for (const [body, path] of [
      [{ phone: ET }, "code"],
      [{ phone: ET, code: "12345" }, "code"],
      [{ phone: ET, code: "abcdef" }, "code"],
      [{ code: "123456" }, "phone"],
    ] as const) {
      const res = await c.post("/api/user/phone/verify", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    expect(await count("jobs")).toBe(0);
    // Asking for codes is limited per account (each SMS costs).
    for (let i = 0; i < 3; i++) expect((await c.post("/api/user/phone", { phone: ET })).status).toBe(202);
    const limited = await c.post("/api/user/phone", { phone: ET });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("password reset by SMS", () => {
  test("a driver resets with the code sent to their phone, in their language; every other session ends", async () => {
    const { c, user } = await driverWithPhone(ET);
    expect((await c.put("/api/user/language", { language: "am" })).status).toBe(200);
    const stranger = createClient(t, "10.0.5.5");
    const before = (await inbox(ET)).length;
    const asked = await stranger.post("/api/auth/password/forgot", { phone: "0911234567" });
    expect(asked.status).toBe(202);
    expect(asked.json).toEqual({ ok: true });
    expect(await worker().runOnce()).toBe(1);
    const sms = (await inbox(ET))[before];
    // In the account's language, whoever asked.
    expect(sms!.body).toStartWith("የMyTess የይለፍ ቃል ዳግም ማስጀመሪያ ኮድ፦ ");
    const code = codeIn(sms);

    const wrong = await stranger.post("/api/auth/password/reset", {
      phone: ET,
      code: code === "000000" ? "111111" : "000000",
      password: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.issues).toEqual([
      { path: "code", message: "This code is wrong, used or expired. Check the SMS or ask for a new code." },
    ]);

    const reset = await stranger.post("/api/auth/password/reset", { phone: ET, code, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(reset.json.user.id).toBe(user.id);
    expect((await stranger.get("/api/auth/user")).json.user.id).toBe(user.id);
    expect((await c.get("/api/auth/user")).status).toBe(401);
    const login = (password: string) =>
      createClient(t, "10.0.5.9").post("/api/auth/login", { email: user.email, password });
    expect((await login("correct-horse-battery")).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    // Single use.
    expect(
      (await createClient(t).post("/api/auth/password/reset", { phone: ET, code, password: "another-password-1" }))
        .status,
    ).toBe(400);
  });

  test("an unknown number gets the same answer and no SMS; a code resets only the account it was sent to", async () => {
    const { user } = await driverWithPhone(ET);
    const other = createClient(t, "10.0.6.2");
    const bob = await registerUser(other, "driver");
    const unknown = "+251922222222";
    const a = await createClient(t, "10.0.6.3").post("/api/auth/password/forgot", { phone: unknown });
    const b = await createClient(t, "10.0.6.4").post("/api/auth/password/forgot", { phone: ET });
    expect(a.status).toBe(202);
    expect(a.text).toBe(b.text);
    expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());
    expect(await worker().runOnce()).toBe(2);
    expect(await inbox(unknown)).toEqual([]);
    const code = codeIn((await inbox(ET)).at(-1));
    // The code with another number is no code; with its own number it changes only its account.
    expect(
      (await other.post("/api/auth/password/reset", { phone: unknown, code, password: NEW_PASSWORD })).status,
    ).toBe(400);
    const ok = await other.post("/api/auth/password/reset", { phone: ET, code, password: NEW_PASSWORD });
    expect(ok.json.user.id).toBe(user.id);
    const bobLogin = await createClient(t, "10.0.6.9").post("/api/auth/login", {
      email: bob.email,
      password: "correct-horse-battery",
    });
    expect(bobLogin.status).toBe(200);
  });

  test("bad input is refused naming the field", async () => {
    const c = createClient(t);
    for (const [body, path] of [
      [{}, "email"],
      [{ phone: "not a number" }, "phone"],
      [{ phone: ET, email: "a@example.com" }, "phone"],
    ] as const) {
      const res = await c.post("/api/auth/password/forgot", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    for (const [body, path] of [
      [{ code: "123456", password: NEW_PASSWORD }, "phone"],
      [{ phone: ET, code: "1234", password: NEW_PASSWORD }, "code"],
      [{ phone: ET, code: "123456", password: "short" }, "password"],
      [{ token: "A".repeat(43), phone: ET, code: "123456", password: NEW_PASSWORD }, "code"],
    ] as const) {
      const res = await c.post("/api/auth/password/reset", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    expect(await count("jobs")).toBe(0);
  });

  test("a code takes 5 tries, also when guessed at once, and works 30 minutes", async () => {
    await driverWithPhone(ET);
    await createClient(t, "10.0.7.1").post("/api/auth/password/forgot", { phone: ET });
    await worker().runOnce();
    const code = codeIn((await inbox(ET)).at(-1));
    const wrong = code === "999999" ? "888888" : "999999";
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createClient(t, `10.0.7.${10 + i}`).post("/api/auth/password/reset", {
          phone: ET,
          code: wrong,
          password: NEW_PASSWORD,
        }),
      ),
    );
    expect(guesses.map((g) => g.status)).toEqual(Array(8).fill(400));
    const [row] = await t.rows<{ attempts: number }>("SELECT attempts FROM phone_codes WHERE purpose = 'reset'");
    expect(row!.attempts).toBe(CODE_TRIES);
    // Its tries are spent: the right code no longer works.
    expect(
      (await createClient(t).post("/api/auth/password/reset", { phone: ET, code, password: NEW_PASSWORD })).status,
    ).toBe(400);

    // A new code, 30 minutes old, is expired.
    await createClient(t, "10.0.7.2").post("/api/auth/password/forgot", { phone: ET });
    await worker().runOnce();
    const late = codeIn((await inbox(ET)).at(-1));
    await t.rows("UPDATE phone_codes SET expires_at = ? WHERE attempts = 0", Date.now() - 1);
    expect(
      (await createClient(t).post("/api/auth/password/reset", { phone: ET, code: late, password: NEW_PASSWORD }))
        .status,
    ).toBe(400);
  });
});

describe("sending", () => {
  test("a number gets at most 5 codes an hour; the deployment at most SMS_DAILY_LIMIT a day", async () => {
    await driverWithPhone(ET); // one code already
    const before = (await inbox(ET)).length;
    for (let i = 0; i < CODES_PER_NUMBER_PER_HOUR + 1; i++)
      expect((await createClient(t, `10.0.8.${i}`).post("/api/auth/password/forgot", { phone: ET })).status).toBe(202);
    expect(await worker().runOnce()).toBe(CODES_PER_NUMBER_PER_HOUR + 1);
    expect((await inbox(ET)).length - before).toBe(CODES_PER_NUMBER_PER_HOUR - 1);
    expect(await count("phone_codes WHERE phone = ?", ET)).toBe(CODES_PER_NUMBER_PER_HOUR);
    // Housekeeping keeps them for the day's count and drops them after it.
    expect((await housekeeping(t.db, Date.now() + 23 * 60 * 60_000)).smsCodes).toBe(0);
    expect((await housekeeping(t.db, Date.now() + 26 * 60 * 60_000)).smsCodes).toBe(CODES_PER_NUMBER_PER_HOUR);
    await t.close();

    t = await appWith({ SMS_DAILY_LIMIT: "2" });
    const numbers = ["+251911000001", "+251911000002", "+251911000003"];
    for (const [i, phone] of numbers.entries()) await driverWithPhone(phone, `10.0.9.${i}`).catch(() => null);
    expect(await count("phone_codes")).toBe(2);
    expect((await inbox(numbers[2]!)).length).toBe(0);
  });

  test("a send that fails is retried with the same code, and a job that already sent sends nothing again", async () => {
    const c = createClient(t);
    const driver = await registerUser(c, "driver");
    emu.failNext(1, 500);
    expect((await c.post("/api/user/phone", { phone: "+251933333333" })).status).toBe(202);
    expect(await worker().runOnce()).toBe(1);
    expect(await inbox("+251933333333")).toEqual([]);
    const [job] = await t.rows<{ status: string; last_error: string; unique_key: string }>(
      "SELECT status, last_error, unique_key FROM jobs",
    );
    expect(job!.status).toBe("pending");
    expect(job!.last_error).toContain("AfroMessage");
    clockShift = 60_000;
    try {
      expect(await worker().runOnce()).toBe(1);
    } finally {
      clockShift = 0;
    }
    const got = await inbox("+251933333333");
    expect(got.length).toBe(1);
    // The job again (a worker that died after the provider took it): the row says sent, nothing goes out.
    const again = await sendPhoneCode(
      t.db,
      { sms: t.services.sms, secrets: t.services.secrets, log: logger },
      { phone: "+251933333333", purpose: "add_phone", userId: driver.id },
      job!.unique_key,
    );
    expect(again).toEqual({ sent: true, again: false });
    expect((await inbox("+251933333333")).length).toBe(1);
    expect((await c.post("/api/user/phone/verify", { phone: "+251933333333", code: codeIn(got[0]) })).status).toBe(200);
  });
});

describe("GET /api/dev/sms", () => {
  test("outside demo mode it is 404", async () => {
    const res = await createClient(t).get("/api/dev/sms");
    expect(res.status).toBe(404);
    expect(res.json.message).toBe("The demo SMS inbox exists in demo mode only");
  });
});
