// Password reset by mail, through the REST routes, the job queue and a real SMTP server (the mail catcher): what the
// user receives, what the database keeps, and what an attacker learns (nothing about which accounts exist).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMailCatcher, type TMailCatcher } from "../../../emulators/mail/catcher";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { ACCOUNTS_JOBS } from "../modules/accounts/jobs";
import { FORGOT_PER_ADDRESS, RESETS_PER_HOUR } from "../modules/accounts/password-reset";
import { housekeeping } from "../modules/platform/housekeeping";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);

const BASE = "https://mytess.example";
const NEW_PASSWORD = "new-horse-battery-staple";

let mail: TMailCatcher;
let t: TTestApp;
beforeAll(async () => {
  mail = await startMailCatcher();
});
afterAll(() => mail.close());
beforeEach(async () => {
  t = await createTestApp({ mail: { smtpUrl: mail.url, from: "MyTess <no-reply@mytess.example>", sandboxDir: null } });
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
const linkIn = (text: string) => {
  const m = /https:\/\/mytess\.example\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no reset link in: ${text}`);
  return { url: m[0], token: m[1]! };
};
const count = async (sql: string, ...args: (string | number)[]) =>
  (await t.rows<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${sql}`, ...args))[0]!.n;

describe("POST /api/auth/password/forgot and /reset", () => {
  test("a shipper gets a link in their language, sets a new password with it; every other session ends", async () => {
    const browser = createClient(t);
    const phone = createClient(t, "10.0.0.9");
    const user = await registerUser(browser, "shipper");
    expect((await phone.post("/api/auth/login", { email: user.email, password: "correct-horse-battery" })).status).toBe(
      200,
    );
    expect((await browser.put("/api/user/language", { language: "am" })).status).toBe(200);

    const stranger = createClient(t, "10.0.0.50");
    const before = mail.mails.length;
    const asked = await stranger.post("/api/auth/password/forgot", { email: user.email.toUpperCase() });
    expect(asked.status).toBe(202);
    expect(asked.json).toEqual({ ok: true });
    expect(await worker().runOnce()).toBe(1);

    const got = await mail.waitFor(user.email, { after: before });
    expect(got.subject).toBe("የMyTess የይለፍ ቃልዎን ዳግም ያስጀምሩ");
    expect(got.from).toContain("no-reply@mytess.example");
    const { url, token } = linkIn(got.text);
    expect(got.html).toContain(`href="${url}"`);
    expect(got.html).toContain('lang="am"');
    // Only the token's SHA-256 is kept; the token itself is nowhere in the database.
    const [row] = await t.rows<{ token_hash: string }>("SELECT token_hash FROM password_resets");
    expect(row!.token_hash).toBe(new Bun.CryptoHasher("sha256").update(token).digest("hex"));
    expect(await count("jobs WHERE CAST(payload AS TEXT) LIKE ?", `%${token}%`)).toBe(0);

    const reset = await stranger.post("/api/auth/password/reset", { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(reset.json.user.email).toBe(user.email);
    // The browser that used the link is signed in; the sessions from before are gone.
    expect((await stranger.get("/api/auth/user")).json.user.email).toBe(user.email);
    expect((await browser.get("/api/auth/user")).status).toBe(401);
    expect((await phone.get("/api/auth/user")).status).toBe(401);
    const login = (password: string) =>
      createClient(t, "10.0.0.77").post("/api/auth/login", { email: user.email, password });
    expect((await login("correct-horse-battery")).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);

    // Single use.
    const again = await createClient(t).post("/api/auth/password/reset", { token, password: "another-password-1" });
    expect(again.status).toBe(400);
    expect(again.json.issues).toEqual([
      { path: "token", message: "This reset link is invalid, used or expired. Ask for a new one." },
    ]);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
  });

  test("an unknown address gets the same answer and no mail is sent", async () => {
    const c = createClient(t);
    const known = await registerUser(c, "driver");
    const before = mail.mails.length;
    const a = await createClient(t, "10.0.1.1").post("/api/auth/password/forgot", { email: "nobody@example.com" });
    const b = await createClient(t, "10.0.1.2").post("/api/auth/password/forgot", { email: known.email });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.text).toBe(b.text);
    expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());
    expect(await worker().runOnce()).toBe(2);
    await mail.waitFor(known.email, { after: before });
    expect(mail.mails.slice(before).map((m) => m.to)).toEqual([[known.email]]);
    expect(await count("password_resets")).toBe(1);
  });

  test("a link resets only the account it was mailed to", async () => {
    const a = createClient(t);
    const b = createClient(t, "10.0.2.2");
    const alice = await registerUser(a, "shipper");
    const bob = await registerUser(b, "driver");
    const before = mail.mails.length;
    await createClient(t, "10.0.2.3").post("/api/auth/password/forgot", { email: alice.email });
    await worker().runOnce();
    const { token } = linkIn((await mail.waitFor(alice.email, { after: before })).text);
    // Bob, signed in, uses Alice's link: Alice's password changes; Bob's account and sessions are untouched.
    expect((await b.post("/api/auth/password/reset", { token, password: NEW_PASSWORD })).status).toBe(200);
    const bobLogin = await createClient(t, "10.0.2.9").post("/api/auth/login", {
      email: bob.email,
      password: "correct-horse-battery",
    });
    expect(bobLogin.status).toBe(200);
    expect(await count("sessions WHERE user_id = ?", bob.id)).toBe(2);
  });

  test("bad input is refused naming the field", async () => {
    const c = createClient(t);
    for (const [body, path] of [
      [{}, "email"],
      [{ email: "not-an-email" }, "email"],
      [{ email: 42 }, "email"],
    ] as const) {
      const res = await c.post("/api/auth/password/forgot", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    const token = "A".repeat(43);
    for (const [body, path] of [
      [{ password: NEW_PASSWORD }, "token"],
      [{ token: "short", password: NEW_PASSWORD }, "token"],
      [{ token }, "password"],
      [{ token, password: "short" }, "password"],
    ] as const) {
      const res = await c.post("/api/auth/password/reset", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    // A well-formed token no link was made for.
    const unknown = await c.post("/api/auth/password/reset", { token, password: NEW_PASSWORD });
    expect(unknown.status).toBe(400);
    expect(unknown.json.issues[0].path).toBe("token");
    expect(await count("jobs")).toBe(0);
  });

  test("a link works for 30 minutes, and one link is taken once even when used twice at once", async () => {
    const c = createClient(t);
    const user = await registerUser(c, "shipper");
    const before = mail.mails.length;
    await c.post("/api/auth/password/forgot", { email: user.email });
    await c.post("/api/auth/password/forgot", { email: user.email });
    await worker().runOnce();
    await mail.waitFor(user.email, { after: before + 1 });
    const [first, second] = mail.mails.slice(before).map((m) => linkIn(m.text).token);
    // Housekeeping keeps links for a day (the hourly limit counts them), then deletes them.
    expect((await housekeeping(t.db, Date.now() + 23 * 60 * 60_000)).resetLinks).toBe(0);
    expect(await count("password_resets")).toBe(2);
    expect(first).not.toBe(second);
    const both = await Promise.all([
      createClient(t, "10.0.3.1").post("/api/auth/password/reset", { token: first, password: NEW_PASSWORD }),
      createClient(t, "10.0.3.2").post("/api/auth/password/reset", { token: first, password: "other-password-22" }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    // Using one link ends the account's other links.
    expect((await c.post("/api/auth/password/reset", { token: second, password: NEW_PASSWORD })).status).toBe(400);

    await c.post("/api/auth/password/forgot", { email: user.email });
    await worker().runOnce();
    const { token } = linkIn((await mail.waitFor(user.email, { after: before + 2 })).text);
    await t.rows("UPDATE password_resets SET expires_at = ? WHERE used_at IS NULL", Date.now() - 1);
    expect((await c.post("/api/auth/password/reset", { token, password: NEW_PASSWORD })).status).toBe(400);
    expect((await housekeeping(t.db, Date.now() + 25 * 60 * 60_000)).resetLinks).toBe(3);
    expect(await count("password_resets")).toBe(0);
  });

  test("a send that fails is retried with the same mail: one link, one Message-ID", async () => {
    const c = createClient(t);
    const user = await registerUser(c, "driver");
    const before = mail.mails.length;
    await c.post("/api/auth/password/forgot", { email: user.email });
    mail.failNext(1, 451, "Try again later");
    const w = worker();
    expect(await w.runOnce()).toBe(1);
    expect(mail.mails.length).toBe(before);
    const [job] = await t.rows<{ status: string; attempts: number }>("SELECT status, attempts FROM jobs");
    expect(job).toMatchObject({ status: "pending", attempts: 1 });
    clockShift = 31_000;
    try {
      expect(await w.runOnce()).toBe(1);
    } finally {
      clockShift = 0;
    }
    const got = await mail.waitFor(user.email, { after: before });
    // The first attempt made the link's row; the retry found it and sent the link it stands for.
    expect(await count("password_resets")).toBe(1);
    const { token } = linkIn(got.text);
    expect(got.messageId).toMatch(/^<[0-9a-f]{32}@mytess\.example>$/);
    expect((await c.post("/api/auth/password/reset", { token, password: NEW_PASSWORD })).status).toBe(200);
  });

  test("a mailbox gets at most 5 reset mails an hour; one address may ask 10 times in 15 minutes", async () => {
    const c = createClient(t);
    const user = await registerUser(c, "shipper");
    const before = mail.mails.length;
    for (let i = 0; i < RESETS_PER_HOUR + 2; i++)
      expect(
        (await createClient(t, `10.0.4.${i}`).post("/api/auth/password/forgot", { email: user.email })).status,
      ).toBe(202);
    await worker().runOnce();
    await mail.waitFor(user.email, { after: before + RESETS_PER_HOUR - 1 });
    expect(mail.mails.slice(before).length).toBe(RESETS_PER_HOUR);

    const one = createClient(t, "10.0.5.1");
    for (let i = 0; i < FORGOT_PER_ADDRESS; i++)
      expect((await one.post("/api/auth/password/forgot", { email: `x${i}@example.com` })).status).toBe(202);
    const refused = await one.post("/api/auth/password/forgot", { email: user.email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.json.message).toMatch(/Too many password reset requests/);
    expect((await createClient(t, "10.0.5.2").post("/api/auth/password/forgot", { email: user.email })).status).toBe(
      202,
    );
  });
});

describe("GET /api/dev/mail (demo mode's inbox)", () => {
  test("in demo mode it lists what the mail catcher took, newest first; otherwise it is 404", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mytess-mail-"));
    const catcher = await startMailCatcher({ dir });
    const demo = await createTestApp({
      demo: true,
      mail: { smtpUrl: catcher.url, from: "MyTess <no-reply@mytess.example>", sandboxDir: dir },
    });
    try {
      const c = createClient(demo);
      const user = await registerUser(c, "driver");
      expect((await c.get("/api/dev/mail")).json).toEqual({ mails: [] });
      await c.post("/api/auth/password/forgot", { email: user.email });
      await runWorker({
        db: demo.db,
        log: logger,
        handlers: bindJobs(ACCOUNTS_JOBS, demo.services, BASE),
        schedules: [],
        autoStart: false,
      }).runOnce();
      await catcher.waitFor(user.email);
      const inbox = await createClient(demo, "10.9.9.9").get("/api/dev/mail");
      expect(inbox.status).toBe(200);
      expect(inbox.json.mails).toHaveLength(1);
      expect(inbox.json.mails[0]).toMatchObject({ to: [user.email], subject: "Reset your MyTess password" });
      expect(inbox.json.mails[0].text).toContain(`${BASE}/reset-password?token=`);
    } finally {
      await demo.close();
      await catcher.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // Not in demo mode (the test app of this file, with an SMTP server): no inbox.
    const res = await createClient(t).get("/api/dev/mail");
    expect(res.status).toBe(404);
    expect(res.json.messageId).toBe("error.mail.noSandbox");
  });
});
