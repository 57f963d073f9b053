// The shared setup of the company HTTP tests (company-loads, company-payments, company-trips): a test app whose mail
// goes to a real SMTP catcher, the companies' job worker run on demand, fresh users from their own addresses, and a
// member joined through the real invitation mail. Registers its own hooks; a file calls it once at its top.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "bun:test";
import { startMailCatcher, type TMailCatcher } from "../../../emulators/mail/catcher";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { COMPANIES_JOBS } from "../modules/companies/jobs";
import { createClient, createTestApp, registerUser, type TTestApp } from "../testing";

const BASE = "https://mytess.example";
export type TClient = ReturnType<typeof createClient>;

/** `subnet` keeps each file's client addresses apart (10.<subnet>.x.y), so sign-up limits never meet. */
export const companyFixture = (subnet: number) => {
  const fx = {} as { t: TTestApp; mail: TMailCatcher };
  beforeAll(async () => {
    fx.mail = await startMailCatcher();
  });
  afterAll(() => fx.mail.close());
  beforeEach(async () => {
    fx.t = await createTestApp({
      mail: { smtpUrl: fx.mail.url, from: "MyTess <no-reply@mytess.example>", sandboxDir: null },
    });
  });
  afterEach(() => fx.t.close());

  const work = async () => {
    const w = runWorker({
      db: fx.t.db,
      log: logger,
      handlers: bindJobs(COMPANIES_JOBS, fx.t.services, BASE),
      schedules: [],
      autoStart: false,
    });
    while ((await w.runOnce()) > 0);
  };
  let ip = 0;
  const newUser = async (type: "driver" | "shipper") => {
    const c = createClient(fx.t, `10.${subnet}.${Math.floor(++ip / 200)}.${ip % 200}`);
    return { c, ...(await registerUser(c, type)) };
  };
  /** A new user of `type` invited by `owner` by email with `role`, who accepts through the mail's link. */
  const join = async (owner: TClient, companyId: number, role: string, type: "driver" | "shipper") => {
    const u = await newUser(type);
    const before = fx.mail.mails.length;
    expect((await owner.post(`/api/companies/${companyId}/invitations`, { email: u.email, role })).status).toBe(201);
    await work();
    const text = (await fx.mail.waitFor(u.email, { after: before })).text;
    const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(text)![1];
    expect((await u.c.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    return u;
  };
  return { fx, work, newUser, join };
};
