// Companies over REST: making one, inviting by email (read from a real SMTP server) and by phone (read from the SMS
// emulators), accepting with the invited account, roles and their refusals, and another company's records as 404.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMailCatcher, type TMailCatcher } from "../../../emulators/mail/catcher";
import { startSmsEmulators, type TSmsEmulators } from "../../../emulators/sms/server";
import { loadConfig } from "../config";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { ACCOUNTS_JOBS } from "../modules/accounts/jobs";
import { INVITATIONS_PER_DAY } from "../modules/companies/invitations";
import { COMPANIES_JOBS } from "../modules/companies/jobs";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);

const BASE = "https://mytess.example";
let mail: TMailCatcher;
let sms: TSmsEmulators;
let t: TTestApp;
beforeAll(async () => {
  mail = await startMailCatcher();
  sms = startSmsEmulators();
});
afterAll(async () => {
  sms.stop();
  await mail.close();
});
beforeEach(async () => {
  t = await createTestApp({
    mail: { smtpUrl: mail.url, from: "MyTess <no-reply@mytess.example>", sandboxDir: null },
    sms: loadConfig(sms.env()).sms,
  });
});
afterEach(() => t.close());

const work = async () => {
  const w = runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs([...ACCOUNTS_JOBS, ...COMPANIES_JOBS], t.services, BASE),
    schedules: [],
    autoStart: false,
  });
  while ((await w.runOnce()) > 0);
};
type TClient = ReturnType<typeof createClient>;
let ip = 0;
const newUser = async (type: "driver" | "shipper") => {
  const c = createClient(t, `10.1.${Math.floor(++ip / 200)}.${ip % 200}`);
  const user = await registerUser(c, type);
  return { c, ...user };
};
const tokenIn = (text: string) => {
  const m = /https:\/\/mytess\.example\/invitations\/([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no invitation link in: ${text}`);
  return m[1]!;
};
type TSms = { to: string; body: string; provider: string };
const inbox = async (phone: string): Promise<TSms[]> =>
  (await fetch(`${sms.urls.twilio}/_emulator/messages?to=${encodeURIComponent(phone)}`)).json() as Promise<TSms[]>;
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);

/** A carrier owned by a new driver account. */
const carrier = async (name = "Abay Freight") => {
  const owner = await newUser("driver");
  const made = await owner.c.post("/api/companies", { kind: "carrier", name, country: "et" });
  expect(made.status).toBe(201);
  return { owner, id: made.json.company.id as number };
};
/** Invites by email, runs the job, and answers the link's token from the mail. */
const inviteByEmail = async (owner: TClient, companyId: number, email: string, role: string) => {
  const before = mail.mails.length;
  const r = await owner.post(`/api/companies/${companyId}/invitations`, { email, role });
  expect(r.status).toBe(201);
  await work();
  return { token: tokenIn((await mail.waitFor(email, { after: before })).text), invitation: r.json };
};
/** A member of the company, by an email invitation they accept. */
const join = async (owner: TClient, companyId: number, role: string, type: "driver" | "shipper" = "driver") => {
  const u = await newUser(type);
  const { token } = await inviteByEmail(owner, companyId, u.email, role);
  expect((await u.c.post(`/api/invitations/${token}/accept`)).status).toBe(200);
  return u;
};

describe("POST /api/companies and GET /api/companies/mine", () => {
  test("a driver makes a carrier and owns it; a second company is refused; a shipper makes a shipper", async () => {
    const owner = await newUser("driver");
    expect((await owner.c.get("/api/companies/mine")).json.membership).toBeNull();
    const made = await owner.c.post("/api/companies", { kind: "carrier", name: "  Abay Freight ", country: "et" });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      company: { kind: "carrier", name: "Abay Freight", country: "ET" },
      role: "owner",
      members: [{ userId: owner.id, role: "owner", firstName: "Dawit" }],
      invitations: [],
    });
    expect((await owner.c.get("/api/companies/mine")).json.membership).toEqual(made.json);
    const again = await owner.c.post("/api/companies", { kind: "carrier", name: "Second", country: "ET" });
    expect(again.status).toBe(409);
    expect(again.json.messageId).toBe("error.company.alreadyMember");

    const shipper = await newUser("shipper");
    const s = await shipper.c.post("/api/companies", { kind: "shipper", name: "Awash Goods", country: "ET" });
    expect(s.status).toBe(201);
    expect(s.json.company.kind).toBe("shipper");
  });

  test("bad input is a 400 naming the field; the account type decides the kind", async () => {
    const driver = await newUser("driver");
    for (const [body, field] of [
      [{ name: "Abay", country: "ET" }, "kind"],
      [{ kind: "fleet", name: "Abay", country: "ET" }, "kind"],
      [{ kind: "shipper", name: "Abay", country: "ET" }, "kind"],
      [{ kind: "carrier", country: "ET" }, "name"],
      [{ kind: "carrier", name: " ", country: "ET" }, "name"],
      [{ kind: "carrier", name: "Abay", country: "Ethiopia" }, "country"],
      [{ kind: "carrier", name: "Abay\u0000", country: "ET" }, "name"],
    ] as const) {
      const r = await driver.c.post("/api/companies", body);
      expect(r.status).toBe(400);
      expect(paths(r)).toContain(field);
    }
    expect((await driver.c.get("/api/companies/mine")).json.membership).toBeNull();
  });

  test("signed out, every company route is a 401", async () => {
    const anon = createClient(t, "10.9.9.9");
    for (const r of [
      await anon.post("/api/companies", { kind: "carrier", name: "Abay", country: "ET" }),
      await anon.get("/api/companies/mine"),
      await anon.post("/api/companies/1/invitations", { email: "a@example.com", role: "driver" }),
      await anon.post("/api/invitations/abcdefghijklmnopqrstuvwxyz/accept"),
      await anon.put("/api/companies/1/members/1", { role: "driver" }),
      await anon.del("/api/companies/1/members/1"),
    ])
      expect(r.status).toBe(401);
  });
});

describe("invitations", () => {
  test("by email, in the invitee's language; only the invited account accepts, once; the token is kept hashed", async () => {
    const { owner, id } = await carrier();
    const invitee = await newUser("driver");
    expect((await invitee.c.put("/api/user/language", { language: "am" })).status).toBe(200);
    const before = mail.mails.length;
    const r = await owner.c.post(`/api/companies/${id}/invitations`, {
      email: invitee.email.toUpperCase(),
      role: "dispatcher",
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ email: invitee.email, phone: null, role: "dispatcher" });
    // Pending for the owner until accepted.
    expect((await owner.c.get("/api/companies/mine")).json.membership.invitations).toEqual([r.json]);
    await work();
    const got = await mail.waitFor(invitee.email, { after: before });
    expect(got.subject).toContain("Abay Freight");
    expect(got.text).toMatch(/[\u1200-\u137f]/);
    const token = tokenIn(got.text);
    // Neither the row nor the job holds the token.
    const dump = JSON.stringify([
      await t.rows("SELECT * FROM company_invitations"),
      await t.rows("SELECT * FROM jobs WHERE kind = 'company_invitation'"),
    ]);
    expect(dump).not.toContain(token);
    // A retried job sends nothing again.
    await t.rows("UPDATE jobs SET status = 'queued', run_at = 0 WHERE kind = 'company_invitation'");
    await work();
    expect(mail.mails.slice(before).filter((m) => m.to.includes(invitee.email))).toHaveLength(1);

    // Someone else signed in with the link: refused, and the invitation stays usable.
    const other = await newUser("driver");
    const wrong = await other.c.post(`/api/invitations/${token}/accept`);
    expect(wrong.status).toBe(403);
    expect(wrong.json.messageId).toBe("error.company.invitationOtherEmail");

    // Sent twice at once (a double tap): one membership.
    const both = await Promise.all([
      invitee.c.post(`/api/invitations/${token}/accept`),
      invitee.c.post(`/api/invitations/${token}/accept`),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const ok = both.find((r) => r.status === 200)!;
    expect(ok.json).toMatchObject({ company: { id }, role: "dispatcher", invitations: [] });
    expect(ok.json.members.map((m: { userId: number; role: string }) => [m.userId, m.role])).toEqual([
      [owner.id, "owner"],
      [invitee.id, "dispatcher"],
    ]);
    expect((await invitee.c.post(`/api/invitations/${token}/accept`)).status).toBe(404);
    expect((await owner.c.get("/api/companies/mine")).json.membership.invitations).toEqual([]);
  });

  test("by email, accepted only once the invited account has confirmed that address", async () => {
    const { owner, id } = await carrier();
    const c = createClient(t, "10.2.0.1");
    const invitee = await registerUser(c, "driver", {}, { verified: false });
    const { token } = await inviteByEmail(owner.c, id, invitee.email, "driver");
    const refused = await c.post(`/api/invitations/${token}/accept`);
    expect(refused.status).toBe(403);
    expect(refused.json.messageId).toBe("error.company.invitationConfirmEmail");
    expect(refused.json.message).toBe(
      "Confirm your email first: open the link we mailed to you, then accept the invitation.",
    );
    // In the account's language.
    expect((await c.put("/api/user/language", { language: "om" })).status).toBe(200);
    const om = await c.post(`/api/invitations/${token}/accept`);
    expect(om.json.messageId).toBe("error.company.invitationConfirmEmail");
    expect(om.json.message).toStartWith("Dura imeelii keessan mirkaneessaa");
    expect((await c.put("/api/user/language", { language: "en" })).status).toBe(200);
    // Refused, not spent: nobody joined and the link still works.
    expect((await owner.c.get("/api/companies/mine")).json.membership.members).toHaveLength(1);
    expect((await c.get(`/api/invitations/${token}`)).status).toBe(200);

    // The link asked for again, opened, and the invitation accepted.
    const before = mail.mails.length;
    expect((await c.post("/api/user/email", { email: invitee.email })).status).toBe(202);
    await work();
    const link = /https:\/\/mytess\.example\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(
      (await mail.waitFor(invitee.email, { after: before })).text,
    )![1];
    expect((await createClient(t, "10.2.0.2").post("/api/auth/email/verify", { token: link })).status).toBe(200);
    const ok = await c.post(`/api/invitations/${token}/accept`);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ company: { id }, role: "driver" });
  });

  test("by phone, by SMS; accepted once the account has confirmed that number", async () => {
    const { owner, id } = await carrier();
    const phone = `+2519${String(10000000 + Math.floor(Math.random() * 89999999))}`;
    const r = await owner.c.post(`/api/companies/${id}/invitations`, { phone, role: "driver" });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ email: null, phone, role: "driver" });
    await work();
    const [text] = await inbox(phone);
    expect(text!.body).toContain("Abay Freight");
    const token = tokenIn(text!.body);

    const driver = await newUser("driver");
    const unconfirmed = await driver.c.post(`/api/invitations/${token}/accept`);
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.json.messageId).toBe("error.company.invitationOtherPhone");
    // The driver proves the number with the code sent to it, then accepts.
    expect((await driver.c.post("/api/user/phone", { phone })).status).toBe(202);
    await work();
    const code = /\b(\d{6})\b/.exec((await inbox(phone)).at(-1)!.body)![1];
    expect((await driver.c.post("/api/user/phone/verify", { phone, code })).status).toBe(200);
    const ok = await driver.c.post(`/api/invitations/${token}/accept`);
    expect(ok.status).toBe(200);
    expect(ok.json.role).toBe("driver");
  });

  test("only owners invite; another company's id is a 404; bad input is a 400 naming the field", async () => {
    const { owner, id } = await carrier();
    const dispatcher = await join(owner.c, id, "dispatcher");
    const forbidden = await dispatcher.c.post(`/api/companies/${id}/invitations`, {
      email: "x@example.com",
      role: "driver",
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.messageId).toBe("error.company.ownerOnly");
    const stranger = await carrier("Other Fleet");
    expect(
      (await stranger.owner.c.post(`/api/companies/${id}/invitations`, { email: "x@example.com", role: "driver" }))
        .status,
    ).toBe(404);
    const loner = await newUser("driver");
    expect(
      (await loner.c.post(`/api/companies/${id}/invitations`, { email: "x@example.com", role: "driver" })).status,
    ).toBe(404);

    for (const [body, field] of [
      [{ role: "driver" }, "email"],
      [{ email: "x@example.com", phone: "+251911234567", role: "driver" }, "phone"],
      [{ email: "not-mail", role: "driver" }, "email"],
      [{ phone: "12", role: "driver" }, "phone"],
      [{ email: "x@example.com" }, "role"],
      [{ email: "x@example.com", role: "boss" }, "role"],
      // A carrier has no staff.
      [{ email: "x@example.com", role: "staff" }, "role"],
    ] as const) {
      const r = await owner.c.post(`/api/companies/${id}/invitations`, body);
      expect(r.status).toBe(400);
      expect(paths(r)).toContain(field);
    }
    expect(
      (await owner.c.post("/api/companies/abc/invitations", { email: "x@example.com", role: "driver" })).status,
    ).toBe(400);
    const bad = await owner.c.post("/api/invitations/short/accept");
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(["token"]);
    expect((await owner.c.post("/api/invitations/abcdefghijklmnopqrstuvwxyz/accept")).status).toBe(404);
  });

  test("a member of a company, or an account of the other type, cannot accept; a company's invitations are bounded", async () => {
    const { owner, id } = await carrier();
    const other = await carrier("Other Fleet");
    const { token } = await inviteByEmail(owner.c, id, other.owner.email, "driver");
    const taken = await other.owner.c.post(`/api/invitations/${token}/accept`);
    expect(taken.status).toBe(409);
    expect(taken.json.messageId).toBe("error.company.alreadyMember");

    const shipper = await newUser("shipper");
    const s = await inviteByEmail(owner.c, id, shipper.email, "driver");
    const wrongType = await shipper.c.post(`/api/invitations/${s.token}/accept`);
    expect(wrongType.status).toBe(403);
    expect(wrongType.json.messageId).toBe("error.company.invitationNeedsDriver");

    const sent = (await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM company_invitations"))[0]!.n;
    for (let i = sent; i < INVITATIONS_PER_DAY; i++)
      expect(
        (await owner.c.post(`/api/companies/${id}/invitations`, { email: `d${i}@example.com`, role: "driver" })).status,
      ).toBe(201);
    const over = await owner.c.post(`/api/companies/${id}/invitations`, { email: "late@example.com", role: "driver" });
    expect(over.status).toBe(429);
  });
});

describe("PUT and DELETE /api/companies/:id/members/:userId", () => {
  test("an owner changes roles and removes members; a member leaves; the last owner stays", async () => {
    const { owner, id } = await carrier();
    const a = await join(owner.c, id, "driver");
    const b = await join(owner.c, id, "driver");

    const promoted = await owner.c.put(`/api/companies/${id}/members/${a.id}`, { role: "dispatcher" });
    expect(promoted.status).toBe(200);
    expect(promoted.json.members.find((m: { userId: number }) => m.userId === a.id).role).toBe("dispatcher");

    // Not an owner: refused, whoever the target.
    expect((await a.c.put(`/api/companies/${id}/members/${b.id}`, { role: "dispatcher" })).status).toBe(403);
    expect((await a.c.del(`/api/companies/${id}/members/${b.id}`)).status).toBe(403);
    // The last owner can neither step down nor leave.
    const down = await owner.c.put(`/api/companies/${id}/members/${owner.id}`, { role: "driver" });
    expect(down.status).toBe(409);
    expect(down.json.messageId).toBe("error.company.lastOwner");
    expect((await owner.c.del(`/api/companies/${id}/members/${owner.id}`)).status).toBe(409);

    // A member leaves on their own.
    const left = await b.c.del(`/api/companies/${id}/members/${b.id}`);
    expect(left.status).toBe(200);
    expect(left.json).toEqual({ removed: true });
    expect((await b.c.get("/api/companies/mine")).json.membership).toBeNull();
    // No longer a member: the company is not found for them.
    expect((await b.c.del(`/api/companies/${id}/members/${a.id}`)).status).toBe(404);

    // With a second owner, the first may leave.
    expect((await owner.c.put(`/api/companies/${id}/members/${a.id}`, { role: "owner" })).status).toBe(200);
    expect((await owner.c.del(`/api/companies/${id}/members/${owner.id}`)).status).toBe(200);
    // The new owner removes nobody who is not a member.
    expect((await a.c.del(`/api/companies/${id}/members/${b.id}`)).status).toBe(404);
    expect(
      (await a.c.get("/api/companies/mine")).json.membership.members.map((m: { userId: number }) => m.userId),
    ).toEqual([a.id]);
  });

  test("another company's members are 404 and stay as they were; bad input is a 400 naming the field", async () => {
    const { owner, id } = await carrier();
    const a = await join(owner.c, id, "driver");
    const other = await carrier("Other Fleet");
    expect((await other.owner.c.put(`/api/companies/${id}/members/${a.id}`, { role: "dispatcher" })).status).toBe(404);
    expect((await other.owner.c.del(`/api/companies/${id}/members/${a.id}`)).status).toBe(404);
    // Their own company's id with our member: not a member there.
    expect((await other.owner.c.put(`/api/companies/${other.id}/members/${a.id}`, { role: "dispatcher" })).status).toBe(
      404,
    );
    expect((await a.c.get("/api/companies/mine")).json.membership.role).toBe("driver");

    for (const [body, field] of [
      [{}, "role"],
      [{ role: "staff" }, "role"],
      [{ role: 3 }, "role"],
    ] as const) {
      const r = await owner.c.put(`/api/companies/${id}/members/${a.id}`, body);
      expect(r.status).toBe(400);
      expect(paths(r)).toContain(field);
    }
    const badId = await owner.c.put(`/api/companies/${id}/members/x`, { role: "driver" });
    expect(badId.status).toBe(400);
    expect(badId.json.message).toBe("userId must be a positive integer");
  });

  test("a shipper's owner invites staff", async () => {
    const shipper = await newUser("shipper");
    const id = (await shipper.c.post("/api/companies", { kind: "shipper", name: "Awash Goods", country: "ET" })).json
      .company.id;
    const staff = await join(shipper.c, id, "staff", "shipper");
    expect((await staff.c.get("/api/companies/mine")).json.membership).toMatchObject({
      role: "staff",
      company: { id },
    });
    const r = await shipper.c.post(`/api/companies/${id}/invitations`, { email: "x@example.com", role: "dispatcher" });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(["role"]);
  });
});
