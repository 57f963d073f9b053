// The invitation link's page over REST: GET /api/invitations/:token says who invites to which role (signed in or
// not, the contact masked), and an owner withdraws a pending invitation (its link then stops working).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMailCatcher, type TMailCatcher } from "../../../emulators/mail/catcher";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { COMPANIES_JOBS } from "../modules/companies/jobs";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);

const BASE = "https://mytess.example";
let mail: TMailCatcher;
let t: TTestApp;
beforeAll(async () => {
  mail = await startMailCatcher();
});
afterAll(async () => {
  await mail.close();
});
beforeEach(async () => {
  t = await createTestApp({ mail: { smtpUrl: mail.url, from: "MyTess <no-reply@mytess.example>", sandboxDir: null } });
});
afterEach(() => t.close());

const work = async () => {
  const w = runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs(COMPANIES_JOBS, t.services, BASE),
    schedules: [],
    autoStart: false,
  });
  while ((await w.runOnce()) > 0);
};
let ip = 0;
const newUser = async (type: "driver" | "shipper") => {
  const c = createClient(t, `10.2.${Math.floor(++ip / 200)}.${ip % 200}`);
  return { c, ...(await registerUser(c, type)) };
};
const carrier = async (name = "Abay Freight") => {
  const owner = await newUser("driver");
  const made = await owner.c.post("/api/companies", { kind: "carrier", name, country: "ET" });
  expect(made.status).toBe(201);
  return { owner, id: made.json.company.id as number };
};
/** Invites by email and answers the invitation and the token from the mail's link. */
const invite = async (owner: ReturnType<typeof createClient>, id: number, email: string, role: string) => {
  const before = mail.mails.length;
  const r = await owner.post(`/api/companies/${id}/invitations`, { email, role });
  expect(r.status).toBe(201);
  await work();
  const text = (await mail.waitFor(email, { after: before })).text;
  const m = /https:\/\/mytess\.example\/invitations\/([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no invitation link in: ${text}`);
  return { token: m[1]!, invitation: r.json as { id: number } };
};

describe("GET /api/invitations/:token", () => {
  test("signed out or in, it names the company, the role and the masked contact; used or unknown is a 404", async () => {
    const { owner, id } = await carrier();
    const invitee = await newUser("driver");
    const { token } = await invite(owner.c, id, invitee.email, "dispatcher");
    const anon = createClient(t, "10.9.9.1");
    const seen = await anon.get(`/api/invitations/${token}`);
    expect(seen.status).toBe(200);
    const [local, domain] = invitee.email.split("@");
    expect(seen.json).toEqual({
      company: { name: "Abay Freight", kind: "carrier", country: "ET" },
      role: "dispatcher",
      sentTo: "email",
      contact: `${local!.slice(0, 1)}•••@${domain}`,
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(seen.json)).not.toContain(invitee.email);
    // Another account reads the same (the page then says which account to use).
    expect((await (await newUser("driver")).c.get(`/api/invitations/${token}`)).json).toEqual(seen.json);

    expect((await invitee.c.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    const used = await anon.get(`/api/invitations/${token}`);
    expect(used.status).toBe(404);
    expect(used.json.messageId).toBe("error.company.invitationInvalid");
    expect((await anon.get(`/api/invitations/${"x".repeat(43)}`)).status).toBe(404);
  });

  test("an expired invitation is a 404; a malformed token is a 400 naming it", async () => {
    const { owner, id } = await carrier();
    const { token } = await invite(owner.c, id, "late@example.com", "driver");
    await t.rows("UPDATE company_invitations SET expires_at = 1");
    const anon = createClient(t, "10.9.9.2");
    expect((await anon.get(`/api/invitations/${token}`)).status).toBe(404);
    const bad = await anon.get("/api/invitations/short");
    expect(bad.status).toBe(400);
    expect((bad.json.issues ?? []).map((i: { path: string }) => i.path)).toContain("token");
  });
});

describe("DELETE /api/companies/:id/invitations/:invitationId", () => {
  test("an owner withdraws a pending invitation: it leaves the list and its link stops working", async () => {
    const { owner, id } = await carrier();
    const invitee = await newUser("driver");
    const { token, invitation } = await invite(owner.c, id, invitee.email, "driver");
    const r = await owner.c.del(`/api/companies/${id}/invitations/${invitation.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ withdrawn: true });
    expect((await owner.c.get("/api/companies/mine")).json.membership.invitations).toEqual([]);
    expect((await invitee.c.get(`/api/invitations/${token}`)).status).toBe(404);
    expect((await invitee.c.post(`/api/invitations/${token}/accept`)).status).toBe(404);
    // Twice: no longer pending.
    const again = await owner.c.del(`/api/companies/${id}/invitations/${invitation.id}`);
    expect(again.status).toBe(404);
    expect(again.json.messageId).toBe("error.company.invitationNotFound");
  });

  test("another company's owner gets a 404, a member who is not an owner a 403; signed out a 401; bad ids a 400", async () => {
    const { owner, id } = await carrier();
    const { invitation } = await invite(owner.c, id, "pending@example.com", "driver");
    const other = await carrier("Other Fleet");
    // Another company's id, and their own company's id with our invitation: both not found.
    expect((await other.owner.c.del(`/api/companies/${id}/invitations/${invitation.id}`)).status).toBe(404);
    expect((await other.owner.c.del(`/api/companies/${other.id}/invitations/${invitation.id}`)).status).toBe(404);
    const driver = await newUser("driver");
    const { token } = await invite(owner.c, id, driver.email, "driver");
    expect((await driver.c.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    const refused = await driver.c.del(`/api/companies/${id}/invitations/${invitation.id}`);
    expect(refused.status).toBe(403);
    expect(refused.json.messageId).toBe("error.company.ownerOnly");
    expect((await createClient(t, "10.9.9.3").del(`/api/companies/${id}/invitations/${invitation.id}`)).status).toBe(
      401,
    );
    const badId = await owner.c.del(`/api/companies/${id}/invitations/x`);
    expect(badId.status).toBe(400);
    expect(badId.json.message).toBe("invitationId must be a positive integer");
    // Still pending for the owner.
    expect(
      (await owner.c.get("/api/companies/mine")).json.membership.invitations.map((i: { id: number }) => i.id),
    ).toEqual([invitation.id]);
  });
});
