// The owner's data over REST: GET /api/user/export (their rows only, no secrets, once a minute) and DELETE /api/user
// (refused while a trip, a dispute or money is unfinished; otherwise everything that acts for the account goes, open
// loads are cancelled and open bids withdrawn, and the anonymised row keeps the other party's history).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startSmsEmulators, type TSmsEmulators } from "../../../emulators/sms/server";
import { loadConfig } from "../config";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { ACCOUNTS_JOBS } from "../modules/accounts/jobs";
import { sealPayoutNumbers } from "../modules/payouts/payouts";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);

const PASSWORD = "correct-horse-battery";
const ET = "+251911234599";

let emu: TSmsEmulators;
beforeAll(() => {
  emu = startSmsEmulators();
});
afterAll(() => emu.stop());
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let otherShipper: TClient;
let otherDriver: TClient;
let anon: TClient;
let ids: { shipper: number; driver: number; otherShipper: number; otherDriver: number };
let emails: { shipper: string; otherShipper: string };

beforeEach(async () => {
  t = await createTestApp({ sms: loadConfig(emu.env()).sms });
  shipper = createClient(t, "10.1.0.1");
  driver = createClient(t, "10.1.0.2");
  otherShipper = createClient(t, "10.1.0.3");
  otherDriver = createClient(t, "10.1.0.4");
  anon = createClient(t, "10.1.0.5");
  const s = await registerUser(shipper, "shipper");
  const os = await registerUser(otherShipper, "shipper");
  ids = {
    shipper: s.id,
    driver: (await registerUser(driver, "driver")).id,
    otherShipper: os.id,
    otherDriver: (await registerUser(otherDriver, "driver")).id,
  };
  emails = { shipper: s.email, otherShipper: os.email };
});

const post = async (c: TClient, title: string) => {
  const res = await c.post("/api/loads", loadInput({ title }));
  expect(res.status).toBe(201);
  return res.json.id as number;
};
const bid = async (c: TClient, loadId: number, amount = 900) => {
  const res = await c.post(`/api/loads/${loadId}/bids`, { amount });
  expect(res.status).toBe(201);
  return res.json.bid.id as number;
};
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);
const one = async <T>(sql: string, ...args: (string | number)[]) => (await t.rows<T>(sql, ...args))[0]!;
const count = async (sql: string, ...args: (string | number)[]) =>
  (await one<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${sql}`, ...args)).n;

describe("GET /api/user/export", () => {
  test("the owner's loads, bids, messages and settings as a JSON attachment; no secret and no one else's rows", async () => {
    const mine = await post(shipper, "Export me: coffee to Djibouti");
    const theirs = await post(otherShipper, "Someone else's teff");
    await bid(driver, mine);
    await bid(otherDriver, theirs, 777);
    await bid(otherDriver, mine, 888);
    expect((await driver.post(`/api/loads/${mine}/messages`, { body: "Driver asks about the dock" })).status).toBe(201);
    expect((await otherDriver.post(`/api/loads/${theirs}/messages`, { body: "A conversation not ours" })).status).toBe(
      201,
    );
    const token = await shipper.post("/api/tokens", { name: "My script", scopes: ["loads:read"] });
    expect(token.status).toBe(201);
    await t.rows(
      "INSERT INTO payout_methods (user_id, provider, bank_name, account_number, account_name, created_at, updated_at) VALUES (?, 'chapa', 'CBE', '1000123456789', 'Dawit Alemu', 1, 1)",
      ids.driver,
    );
    // Saved before numbers were sealed: the start-up step seals it.
    expect(await sealPayoutNumbers(t.db, t.services.secrets)).toBe(1);

    const res = await shipper.get("/api/user/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="mytess-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const file = res.json;
    expect(file.format).toBe("mytess-export/1");
    expect(file.profile).toMatchObject({ id: ids.shipper, email: emails.shipper, signInWith: ["password"] });
    expect(file.loadsPosted.map((l: { id: number; title: string }) => [l.id, l.title])).toEqual([
      [mine, "Export me: coffee to Djibouti"],
    ]);
    expect(file.messages).toHaveLength(1);
    expect(file.messages[0]).toMatchObject({ loadId: mine, sentByMe: false, body: "Driver asks about the dock" });
    expect(file.apiTokens).toEqual([expect.objectContaining({ name: "My script", scopes: ["loads:read"] })]);
    expect(file.sessions.length).toBeGreaterThan(0);
    expect(file.omitted).toContain("password hash");

    // Secrets never: the password, its hash, the session cookie, the API token; nor another account's rows.
    const hash = (await one<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = ?", ids.shipper))
      .password_hash;
    const text = res.text;
    for (const secret of [PASSWORD, hash, shipper.cookie.split("=")[1]!, token.json.token as string])
      expect(text).not.toContain(secret);
    for (const foreign of ["Someone else's teff", "A conversation not ours", emails.otherShipper, "77700"])
      expect(text).not.toContain(foreign);
    expect(text).not.toContain('"passwordHash"');
    expect(text).not.toContain("tokenHash");

    // The driver's copy: their bid and message, the payout account masked; not the other driver's bid on the load.
    const d = await driver.get("/api/user/export");
    expect(d.status).toBe(200);
    expect(d.json.bids.map((b: { loadId: number; amountMinor: number }) => [b.loadId, b.amountMinor])).toEqual([
      [mine, 90000],
    ]);
    expect(d.json.messages.map((m: { sentByMe: boolean }) => m.sentByMe)).toEqual([true]);
    expect(d.json.payoutMethods).toEqual([expect.objectContaining({ accountNumber: "•••• 6789", bankName: "CBE" })]);
    expect(d.text).not.toContain("1000123456789");
    expect(d.text).not.toContain("88800");
    expect(d.json.loadsPosted).toEqual([]);
  });

  test("once a minute per account: a second download is a 429 saying when", async () => {
    expect((await shipper.get("/api/user/export")).status).toBe(200);
    const again = await shipper.get("/api/user/export");
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(again.json.messageId).toBe("error.export.tooSoon");
    // Another account's allowance is its own.
    expect((await driver.get("/api/user/export")).status).toBe(200);
  });

  test("signed out is a 401; an API token, even with account:read, is refused (browser sessions only)", async () => {
    expect((await anon.get("/api/user/export")).status).toBe(401);
    const token = (await shipper.post("/api/tokens", { name: "All", scopes: ["account:read", "account:write"] })).json
      .token as string;
    const res = await anon.get("/api/user/export", { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(403);
  });
});

describe("DELETE /api/user", () => {
  test("signed out 401; bad input 400 naming the field; a wrong password 400 on password and nothing changes", async () => {
    expect((await anon.del("/api/user", { password: PASSWORD })).status).toBe(401);
    const none = await shipper.del("/api/user", {});
    expect(none.status).toBe(400);
    expect(paths(none)).toEqual(["password"]);
    const notText = await shipper.del("/api/user", { password: 12345 });
    expect(notText.status).toBe(400);
    expect(paths(notText)).toContain("password");
    const both = await shipper.del("/api/user", { password: PASSWORD, code: "123456" });
    expect(both.status).toBe(400);
    expect(paths(both)).toEqual(["code"]);
    const shortCode = await shipper.del("/api/user", { code: "12" });
    expect(shortCode.status).toBe(400);
    expect(paths(shortCode)).toEqual(["code"]);
    const wrong = await shipper.del("/api/user", { password: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect(paths(wrong)).toEqual(["password"]);
    expect((await shipper.get("/api/auth/user")).status).toBe(200);
    expect(await count("users WHERE id = ? AND deleted_at IS NULL", ids.shipper)).toBe(1);
  });

  test("a load in progress blocks it, for the shipper and for the driver, with a message naming the load", async () => {
    const loadId = await post(shipper, "Awarded cement");
    const bidId = await bid(driver, loadId);
    expect((await shipper.post(`/api/bids/${bidId}/accept`)).status).toBe(200);
    for (const c of [shipper, driver]) {
      const res = await c.del("/api/user", { password: PASSWORD });
      expect(res.status).toBe(409);
      expect(res.json.messageId).toBe("error.account.deleteBlocked");
      expect(res.json.message).toContain(`#${loadId}`);
      expect(res.json.message).toContain("loads in progress");
    }
    // In the caller's language too.
    expect((await shipper.put("/api/user/language", { language: "am" })).status).toBe(200);
    const am = await shipper.del("/api/user", { password: PASSWORD });
    expect(am.status).toBe(409);
    expect(am.json.message).toContain(`#${loadId}`);
    expect(am.json.message).not.toContain("Finish these first");
    expect(await count("users WHERE deleted_at IS NOT NULL")).toBe(0);
    expect(await count("sessions WHERE user_id = ?", ids.shipper)).toBeGreaterThan(0);

    // Disputed after delivery: still blocked, as a dispute.
    expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
    expect((await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Three bags short" })).status).toBe(200);
    const disputed = await driver.del("/api/user", { password: PASSWORD });
    expect(disputed.status).toBe(409);
    expect(disputed.json.message).toContain(`open disputes on loads #${loadId}`);
  });

  test("deleted: open loads cancelled (bidders told), bids withdrawn, access gone, history kept anonymised; the email can sign up again", async () => {
    // A completed trip with ratings both ways: the driver's history must keep it.
    const done = await post(shipper, "Completed sugar");
    const doneBid = await bid(driver, done);
    expect((await shipper.post(`/api/bids/${doneBid}/accept`)).status).toBe(200);
    expect((await driver.post(`/api/loads/${done}/pickup`)).status).toBe(200);
    expect((await driver.post(`/api/loads/${done}/deliver`)).status).toBe(200);
    expect((await shipper.post(`/api/loads/${done}/pod/accept`)).json.status).toBe("completed");
    expect((await shipper.post(`/api/loads/${done}/rating`, { score: 5 })).status).toBeLessThan(300);
    expect((await driver.post(`/api/loads/${done}/rating`, { score: 4 })).status).toBeLessThan(300);
    await driver.post(`/api/loads/${done}/messages`, { body: "Delivered at gate 3" });
    // An open load with a pending bid, and the shipper's own connections.
    const open = await post(shipper, "Open flour");
    const openBid = await bid(driver, open);
    const token = (await shipper.post("/api/tokens", { name: "Script", scopes: ["loads:read"] })).json.token as string;
    expect((await shipper.post("/api/saved-searches", { name: "Mine", search: { radius: "50" } })).status).toBe(201);
    // The driver also bid on another shipper's open load: that bid is withdrawn when the driver goes (below).
    const stolenCookie = shipper.cookie;

    const res = await shipper.del("/api/user", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deleted: true });
    expect(res.headers.get("set-cookie")).toMatch(/Max-Age=0/i);

    // Signed out everywhere: the cookie, a replayed cookie and the token all fail; the password signs nobody in.
    expect((await shipper.get("/api/auth/user")).status).toBe(401);
    const replay = createClient(t, "10.1.0.9");
    replay.cookie = stolenCookie;
    expect((await replay.get("/api/auth/user")).status).toBe(401);
    expect((await anon.get("/api/loads", { Authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await anon.post("/api/auth/login", { email: emails.shipper, password: PASSWORD })).status).toBe(401);

    // The open load is cancelled and its bidder's bid rejected, as a cancellation by hand does; the bidder is told.
    expect(await one<{ status: string }>("SELECT status FROM loads WHERE id = ?", open)).toEqual({
      status: "cancelled",
    });
    expect(await one<{ status: string }>("SELECT status FROM bids WHERE id = ?", openBid)).toEqual({
      status: "rejected",
    });
    expect(
      await count("notifications WHERE user_id = ? AND load_id = ? AND channel = 'in_app'", ids.driver, open),
    ).toBe(1);

    // The row stays, anonymised; what acted for it is gone.
    const row = await one<Record<string, unknown>>(
      "SELECT email, phone, password_hash, first_name, last_name, deleted_at FROM users WHERE id = ?",
      ids.shipper,
    );
    expect(row).toMatchObject({
      email: null,
      phone: null,
      password_hash: null,
      first_name: "Deleted user",
      last_name: "",
    });
    expect(Number(row.deleted_at)).toBeGreaterThan(0);
    for (const table of ["sessions", "api_tokens", "saved_searches", "notifications"])
      expect(await count(`${table} WHERE user_id = ?`, ids.shipper)).toBe(0);

    // The driver keeps the completed trip, its rating and the conversation.
    const trip = await driver.get(`/api/loads/${done}`);
    expect(trip.status).toBe(200);
    expect(trip.json.status).toBe("completed");
    expect(await count("ratings WHERE load_id = ?", done)).toBe(2);
    expect(await count("messages WHERE load_id = ?", done)).toBe(1);
    const mine = await driver.get("/api/user/export");
    expect(mine.json.tripsDriven.map((l: { id: number }) => l.id)).toContain(done);

    // The address is free again.
    const again = createClient(t, "10.1.0.10");
    const signUp = await again.post("/api/auth/register", {
      email: emails.shipper,
      password: PASSWORD,
      firstName: "Hana",
      lastName: "Alemu",
      userType: "shipper",
    });
    expect(signUp.status).toBe(201);
    expect(signUp.json.user.id).not.toBe(ids.shipper);
  });

  test("a driver's open bids are withdrawn; the shipper's load stays posted", async () => {
    const loadId = await post(otherShipper, "Posted barley");
    const bidId = await bid(driver, loadId);
    expect((await driver.del("/api/user", { password: PASSWORD })).status).toBe(200);
    expect(await one<{ status: string }>("SELECT status FROM bids WHERE id = ?", bidId)).toEqual({
      status: "withdrawn",
    });
    expect(await one<{ status: string }>("SELECT status FROM loads WHERE id = ?", loadId)).toEqual({
      status: "posted",
    });
  });
});

describe("a phone-only account confirms with a code by SMS", () => {
  const worker = () =>
    runWorker({
      db: t.db,
      log: logger,
      handlers: bindJobs(ACCOUNTS_JOBS, t.services, "https://mytess.example"),
      schedules: [],
      autoStart: false,
    });
  const inbox = async (phone: string) =>
    (await (await fetch(`${emu.urls.twilio}/_emulator/messages?to=${encodeURIComponent(phone)}`)).json()) as {
      body: string;
    }[];
  const codeIn = (body: string | undefined) => /\b(\d{6})\b/.exec(body ?? "")?.[1] ?? "";

  test("POST /api/user/delete-code sends it; a wrong code is a 400 on code; the right one deletes; the number can sign up again", async () => {
    const phone = createClient(t, "10.1.0.20");
    expect((await phone.post("/api/auth/phone/start", { phone: ET })).status).toBe(202);
    await worker().runOnce();
    const signInCode = codeIn((await inbox(ET)).at(-1)?.body);
    const made = await phone.post("/api/auth/phone/verify", {
      phone: ET,
      code: signInCode,
      firstName: "Abebe",
      lastName: "Kebede",
      userType: "driver",
    });
    expect(made.status).toBe(200);
    // No password on this account: it must use a code.
    const noPassword = await phone.del("/api/user", { password: "anything-at-all" });
    expect(noPassword.status).toBe(400);
    expect(paths(noPassword)).toEqual(["password"]);
    // An email account without a number cannot ask for one.
    const noPhone = await shipper.post("/api/user/delete-code");
    expect(noPhone.status).toBe(400);
    expect(paths(noPhone)).toEqual(["phone"]);
    expect((await anon.post("/api/user/delete-code")).status).toBe(401);

    expect((await phone.post("/api/user/delete-code")).status).toBe(202);
    await worker().runOnce();
    const sms = (await inbox(ET)).at(-1)?.body ?? "";
    expect(sms).toContain("delete your account");
    const code = codeIn(sms);
    const wrong = await phone.del("/api/user", { code: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(paths(wrong)).toEqual(["code"]);
    // Another account cannot use this account's code.
    const other = await driver.del("/api/user", { code });
    expect(other.status).toBe(400);
    expect((await phone.del("/api/user", { code })).status).toBe(200);
    expect((await phone.get("/api/auth/user")).status).toBe(401);
    expect(await count("users WHERE phone = ?", ET)).toBe(0);
  });
});
