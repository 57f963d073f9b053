// Email verification at sign-up and what waits for a proven contact, through the REST routes, the job queue and a real
// SMTP server: the link mailed at once, the account working meanwhile, the 4th load refused until an email or phone is
// proven, and the link's answers when used, reused or forged.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMailCatcher, type TMailCatcher } from "../../../emulators/mail/catcher";
import { startSmsEmulators, type TSmsEmulators } from "../../../emulators/sms/server";
import { loadConfig } from "../config";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { ACCOUNTS_JOBS } from "../modules/accounts/jobs";
import { UNVERIFIED_LOAD_LIMIT } from "../modules/accounts/verified-contact";
import { createClient, createTestApp, loadInput, registerUser, type TTestApp, uniqueEmail } from "../testing";

setDefaultTimeout(60_000);

const BASE = "https://mytess.example";
const ET = "+251911234567";
const POST_MORE = "Confirm your email or phone to post more than 3 loads";

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
const count = async (sql: string, ...args: (string | number)[]) =>
  (await t.rows<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${sql}`, ...args))[0]!.n;
const linkIn = (text: string) => {
  const m = /https:\/\/mytess\.example\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[1]!;
};
type TSms = { body: string };
const inbox = async (phone: string): Promise<TSms[]> =>
  (await fetch(`${emu.urls.twilio}/_emulator/messages?to=${encodeURIComponent(phone)}`)).json() as Promise<TSms[]>;

/** Signs up with an email through the route (no shortcut) and reads the link the sign-up mailed. */
const signUpAndReadLink = async (c: ReturnType<typeof createClient>, headers: Record<string, string> = {}) => {
  const email = uniqueEmail("shipper");
  const before = mail.mails.length;
  const res = await c.post(
    "/api/auth/register",
    { email, password: "correct-horse-battery", firstName: "Hana", lastName: "Alemu", userType: "shipper" },
    headers,
  );
  expect(res.status).toBe(201);
  expect(await worker().runOnce()).toBe(1);
  const got = await mail.waitFor(email, { after: before });
  return { user: res.json.user, email, token: linkIn(got.text), mail: got };
};

const postLoads = async (c: ReturnType<typeof createClient>, n: number) => {
  for (let i = 0; i < n; i++)
    expect((await c.post("/api/loads", loadInput({ title: `Load ${i + 1}` }))).status).toBe(201);
};

describe("sign-up with an email", () => {
  test("mails the link at once, in the account's language; the account works meanwhile; the link proves the address once", async () => {
    const c = createClient(t);
    const { user, email, token, mail: got } = await signUpAndReadLink(c, { "Accept-Language": "am" });
    expect(user).toMatchObject({ email, emailVerified: false, phone: null });
    expect(got.subject).not.toBe("Confirm your email for MyTess"); // Amharic
    expect(await count("email_verifications WHERE token_hash = ?", token)).toBe(0);
    // Works at once: signed in, posts a load.
    expect((await c.get("/api/auth/user")).json.user.emailVerified).toBe(false);
    expect((await c.post("/api/loads", loadInput())).status).toBe(201);

    // Opened in the phone's mail app: no session there.
    const anon = createClient(t, "10.0.7.7");
    expect((await anon.post("/api/auth/email/verify", { token })).status).toBe(200);
    expect((await c.get("/api/auth/user")).json.user).toMatchObject({ id: user.id, email, emailVerified: true });
    const again = await anon.post("/api/auth/email/verify", { token }, { "Accept-Language": "om" });
    expect(again.status).toBe(400);
    expect(again.json.issues[0].path).toBe("token");
    expect(again.json.message).not.toContain("This confirmation link");

    // Asking again once proven sends nothing: the job sees the address is already the account's, proven.
    const before = mail.mails.length;
    expect((await c.post("/api/user/email", { email })).status).toBe(202);
    await worker().runOnce();
    expect(await count("jobs WHERE kind = 'email_verification_mail' AND status = 'done'")).toBe(2);
    expect(mail.mails.length).toBe(before);
  });

  test("'Send the link again' mails a new link for the same address; either link proves it; a forged one does not", async () => {
    const c = createClient(t);
    const { email, token: first } = await signUpAndReadLink(c);
    const before = mail.mails.length;
    expect((await c.post("/api/user/email", { email })).status).toBe(202);
    expect(await worker().runOnce()).toBe(1);
    const second = linkIn((await mail.waitFor(email, { after: before })).text);
    expect(second).not.toBe(first);
    const forged = await c.post("/api/auth/email/verify", { token: `${second.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(400);
    expect(forged.json.issues[0].path).toBe("token");
    expect((await c.post("/api/auth/email/verify", { token: first })).status).toBe(200);
    expect((await c.get("/api/auth/user")).json.user.emailVerified).toBe(true);
  });

  test("signed out: asking for a link is 401; bad input names the field and sends nothing", async () => {
    const anon = createClient(t, "10.0.8.1");
    expect((await anon.post("/api/user/email", { email: "x@example.com" })).status).toBe(401);
    const c = createClient(t);
    await registerUser(c, "shipper", {}, { verified: false });
    const jobs = await count("jobs");
    for (const [body, path] of [
      [{}, "email"],
      [{ email: "nope" }, "email"],
    ] as const) {
      const res = await c.post("/api/user/email", body);
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    expect(await count("jobs")).toBe(jobs);
  });
});

describe("posting more than 3 loads waits for a proven contact", () => {
  test("the 4th load is a translated 403 until the email is proven, then accepted; nothing is half-written", async () => {
    const c = createClient(t);
    const { user, token } = await signUpAndReadLink(c);
    await postLoads(c, UNVERIFIED_LOAD_LIMIT);
    const refused = await c.post("/api/loads", loadInput({ title: "Load 4" }));
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(POST_MORE);
    expect(refused.json.messageId).toBe("error.contact.requiredToPostMore");
    // In the account's language.
    expect((await c.put("/api/user/language", { language: "am" })).status).toBe(200);
    const am = await c.post("/api/loads", loadInput({ title: "Load 4" }));
    expect(am.status).toBe(403);
    expect(am.json.message).toBe("ከ3 በላይ ጭነቶችን ለመለጠፍ ኢሜይልዎን ወይም ስልክዎን ያረጋግጡ");
    expect(await count("loads WHERE shipper_id = ?", user.id)).toBe(UNVERIFIED_LOAD_LIMIT);

    expect((await c.post("/api/auth/email/verify", { token })).status).toBe(200);
    expect((await c.post("/api/loads", loadInput({ title: "Load 4" }))).status).toBe(201);
    expect(await count("loads WHERE shipper_id = ?", user.id)).toBe(UNVERIFIED_LOAD_LIMIT + 1);
  });

  test("loads posted at once cannot all slip under the limit", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper", {}, { verified: false });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => c.post("/api/loads", loadInput({ title: `Load ${i}` }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(UNVERIFIED_LOAD_LIMIT);
    expect(answers.filter((a) => a.status === 403)).toHaveLength(6 - UNVERIFIED_LOAD_LIMIT);
  });

  test("a proven phone is enough, and one account's limit is not another's", async () => {
    const c = createClient(t);
    await registerUser(c, "shipper", {}, { verified: false });
    const other = createClient(t, "10.0.9.2");
    await registerUser(other, "shipper", {}, { verified: false });
    await postLoads(c, UNVERIFIED_LOAD_LIMIT);
    expect((await c.post("/api/loads", loadInput())).status).toBe(403);
    // Another unproven account still has its own 3.
    await postLoads(other, UNVERIFIED_LOAD_LIMIT);

    const before = (await inbox(ET)).length;
    expect((await c.post("/api/user/phone", { phone: ET })).status).toBe(202);
    await worker().runOnce();
    const code = /\b(\d{6})\b/.exec((await inbox(ET))[before]!.body)![1]!;
    expect((await c.post("/api/user/phone/verify", { phone: ET, code })).status).toBe(200);
    expect((await c.post("/api/loads", loadInput())).status).toBe(201);
  });

  test("an account made by phone proved its number at sign-up: no limit", async () => {
    const c = createClient(t);
    const before = (await inbox(ET)).length;
    expect((await c.post("/api/auth/phone/start", { phone: ET })).status).toBe(202);
    await worker().runOnce();
    const code = /\b(\d{6})\b/.exec((await inbox(ET))[before]!.body)![1]!;
    const made = await c.post("/api/auth/phone/verify", {
      phone: ET,
      code,
      firstName: "Hana",
      lastName: "Alemu",
      userType: "shipper",
    });
    expect(made.status).toBe(200);
    expect(made.json.user).toMatchObject({ email: null, emailVerified: false, phone: ET });
    await postLoads(c, UNVERIFIED_LOAD_LIMIT + 1);
  });

  test("signed out is 401, before any count", async () => {
    expect((await createClient(t, "10.0.9.9").post("/api/loads", loadInput())).status).toBe(401);
  });
});
