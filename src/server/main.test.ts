import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase, type TScratchDb } from "../../db/testing";
import { createShopifyEmulator, signedWebhook } from "../../emulators/stores/shopify";
import { signChapaPayload } from "./integrations/payments/chapa";
import { signStripePayload } from "./integrations/payments/stripe";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-main-"));
const dbs: TScratchDb[] = [];
// A failed expectation must not leave a server running (it would hold its database's connections).
const procs: ReturnType<typeof Bun.spawn>[] = [];
afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  for (const db of dbs) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});
/** An empty database (no tables: the server migrates it) on the engine the tests run on. */
const emptyDatabase = async (name: string) => {
  const db = await scratchDatabase(dir, name, { unmigrated: true });
  dbs.push(db);
  return db;
};

/** A port nothing listens on now (a random one could be the test PostgreSQL cluster's or another server's). */
const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = probe;
  probe.stop(true);
  return port;
};

const boot = async (
  concurrency: number,
  args: string[] = [],
  name = `main-${concurrency}`,
  shared: TScratchDb | null = null,
  extraEnv: Record<string, string> = {},
): Promise<{ proc: ReturnType<typeof Bun.spawn>; port: number; db: TScratchDb }> => {
  const db = shared ?? (await emptyDatabase(name));
  // Demo mode starts from its launcher, which starts the emulators and then the server.
  const entry = extraEnv.MYTESS_DEMO
    ? join(import.meta.dir, "..", "demo", "main.ts")
    : join(import.meta.dir, "main.ts");
  // The port found free may be taken by another process before the server listens (other suites share the machine):
  // a server that stops saying so is started again on another port.
  for (let attempt = 1; ; attempt++) {
    const port = freePort();
    const proc = Bun.spawn(["bun", entry, ...args], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        ...db.env,
        WEB_CONCURRENCY: String(concurrency),
        LOG_LEVEL: "silent",
        WEB_DIST: dir,
        ...extraEnv,
      },
      stdout: "ignore",
      stderr: "pipe",
    });
    procs.push(proc);
    for (let i = 0; i < 300 && proc.exitCode === null; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { proc, port, db };
      } catch {}
      await Bun.sleep(100);
    }
    proc.kill();
    const stderr = await new Response(proc.stderr).text();
    if (attempt < 3 && stderr.includes(`port ${port} in use`)) continue;
    throw new Error(`server did not start: ${stderr}`);
  }
};

test.each([1, 2])(
  "with %i server process(es): migrates, never seeds, serves, and stops cleanly on SIGTERM",
  async (concurrency) => {
    const { proc, port, db } = await boot(concurrency);
    const stats = await (await fetch(`http://127.0.0.1:${port}/api/platform-stats`)).json();
    expect(stats.totalLoads).toBe(0);
    // A request in flight when the signal arrives still gets its answer. Its body is sent in two parts, the second
    // only after the signal: so the request has surely reached the server (a 5 ms pause alone was not always enough
    // on a busy machine) and cannot have been answered before the signal.
    const body = new TextEncoder().encode(
      JSON.stringify({
        email: `drain${concurrency}@example.com`,
        password: "long-enough-1",
        firstName: "Drain",
        lastName: "Test",
        userType: "driver",
      }),
    );
    let sendRest = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.subarray(0, 10));
        sendRest = () => {
          controller.enqueue(body.subarray(10));
          controller.close();
        };
      },
    });
    const inFlight = fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: stream,
    });
    await Bun.sleep(100);
    proc.kill("SIGTERM");
    await Bun.sleep(20);
    sendRest();
    expect((await inFlight).status).toBe(201);
    expect(await proc.exited).toBe(0);
    // The database was closed cleanly: it opens, and the write made while stopping is there.
    expect(await db.rows("select cast(count(*) as integer) as n from users")).toEqual([{ n: 1 }]);
  },
);

/** The jobs the process has run so far, read from its database (none while it has no tables yet). */
const jobsIn = (db: TScratchDb) =>
  db.rows<{ kind: string; status: string }>("select kind, status from jobs").catch(() => []);
const housekeepingDone = async (db: TScratchDb) =>
  (await jobsIn(db)).some((j) => j.kind === "housekeeping" && j.status === "done");

const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await Bun.sleep(100);
  return check();
};

test("by default one box serves and runs the jobs; --role web serves only", async () => {
  const all = await boot(1, [], "role-all");
  expect(await waitFor(() => housekeepingDone(all.db))).toBe(true);
  all.proc.kill("SIGTERM");
  expect(await all.proc.exited).toBe(0);

  const web = await boot(1, ["--role", "web"], "role-web");
  await Bun.sleep(1500);
  expect(await jobsIn(web.db)).toEqual([]);
  web.proc.kill("SIGTERM");
  expect(await web.proc.exited).toBe(0);
}, 60_000);

test("--role worker runs the jobs without serving HTTP, and stops on SIGTERM", async () => {
  const port = freePort();
  const db = await emptyDatabase("role-worker");
  const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts"), "--role", "worker"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ...db.env,
      LOG_LEVEL: "silent",
      WEB_DIST: dir,
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  procs.push(proc);
  expect(await waitFor(() => housekeepingDone(db))).toBe(true);
  expect(
    await fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
}, 60_000);

test("an unknown role is refused with a message", async () => {
  const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts"), "--role", "cron"], {
    env: { ...process.env, DATABASE_PATH: join(dir, "role-bad.db"), LOG_LEVEL: "silent" },
    stdout: "ignore",
    stderr: "pipe",
  });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr).text()).toContain("--role must be one of all, web, worker");
});

test("outside demo mode and tests the start refuses without a real VAPID_SUBJECT, naming it", async () => {
  const start = async (extra: Record<string, string>) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      MYTESS_DEMO: "0",
      DATABASE_PATH: join(dir, "vapid.db"),
      LOG_LEVEL: "silent",
      ...extra,
    };
    delete env.VAPID_SUBJECT;
    Object.assign(env, extra);
    const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts"), "--role", "worker"], {
      env,
      stdout: "ignore",
      stderr: "pipe",
    });
    procs.push(proc);
    return { code: await proc.exited, stderr: await new Response(proc.stderr).text() };
  };
  const unset = await start({});
  expect(unset.code).toBe(2);
  expect(unset.stderr).toContain("VAPID_SUBJECT is not set");
  const placeholder = await start({ VAPID_SUBJECT: "mailto:postmaster@localhost" });
  expect(placeholder.code).toBe(2);
  expect(placeholder.stderr).toContain('VAPID_SUBJECT: "mailto:postmaster@localhost" names a local host');
  const wrong = await start({ VAPID_SUBJECT: "ops@mytess.example" });
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("is not a mailto: address or an https: URL");
});

test("two servers on one database behave as one: sessions, sign-in throttling and awards are shared", async () => {
  const db = await emptyDatabase("two-servers");
  const a = await boot(1, ["--role", "web"], "two-a", db);
  const b = await boot(1, ["--role", "web"], "two-b", db);
  const at = (s: { port: number }, path: string, init: RequestInit & { cookie?: string } = {}) =>
    fetch(`http://127.0.0.1:${s.port}${path}`, {
      ...init,
      headers: {
        "Content-Type": "application/json",
        Origin: `http://127.0.0.1:${s.port}`,
        ...(init.cookie ? { Cookie: init.cookie } : {}),
      },
    });
  const register = async (s: { port: number }, email: string, userType: string) => {
    const res = await at(s, "/api/auth/register", {
      method: "POST",
      body: JSON.stringify({ email, password: "long-enough-1", firstName: "Two", lastName: "Servers", userType }),
    });
    expect(res.status).toBe(201);
    return res.headers.getSetCookie()[0]!.split(";")[0]!;
  };

  // A session made on one server is valid on the other.
  const shipper = await register(a, "two-shipper@example.com", "shipper");
  const me = await at(b, "/api/auth/user", { cookie: shipper });
  expect(me.status).toBe(200);
  expect((await me.json()).user.email).toBe("two-shipper@example.com");

  // Sign-in failures count across both servers: five wrong passwords spread over them, then the right one is refused.
  const login = (s: { port: number }, password: string) =>
    at(s, "/api/auth/login", { method: "POST", body: JSON.stringify({ email: "two-shipper@example.com", password }) });
  for (const s of [a, b, a, b, a]) expect((await login(s, "wrong-password")).status).toBe(401);
  expect((await login(b, "long-enough-1")).status).toBe(429);

  // Two accepts of different bids on one load, sent to the two servers at once, award it once.
  const load = await at(a, "/api/loads", {
    method: "POST",
    cookie: shipper,
    body: JSON.stringify({
      title: "Teff",
      equipmentType: "dry_van",
      pickupAddress: "Market",
      pickupCity: "Adama",
      pickupCountry: "Ethiopia",
      pickupLatitude: 8.54,
      pickupLongitude: 39.27,
      deliveryAddress: "Depot",
      deliveryCity: "Addis Ababa",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 9.03,
      deliveryLongitude: 38.74,
      weight: 10000,
      budgetAmount: 500,
      pickupDate: new Date(Date.now() + 86_400_000).toISOString(),
      deliveryDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    }),
  });
  expect(load.status).toBe(201);
  const loadId = (await load.json()).id;
  const bidIds: number[] = [];
  for (const [i, s] of [a, b].entries()) {
    const driver = await register(s, `two-driver-${i}@example.com`, "driver");
    const bid = await at(s, `/api/loads/${loadId}/bids`, {
      method: "POST",
      cookie: driver,
      body: JSON.stringify({ amount: 450 + i }),
    });
    expect(bid.status).toBe(201);
    bidIds.push((await bid.json()).bid.id);
  }
  const answers = await Promise.all(
    [a, b].map((s, i) => at(s, `/api/bids/${bidIds[i]}/accept`, { method: "POST", cookie: shipper })),
  );
  expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  const bids = await db.rows<{ status: string }>("select status from bids where load_id = ? order by id", loadId);
  expect(bids.map((x) => x.status).sort()).toEqual(["accepted", "rejected"]);
  expect(await db.rows("select status from loads where id = ?", loadId)).toEqual([{ status: "assigned" }]);
  for (const s of [a, b]) {
    s.proc.kill("SIGTERM");
    expect(await s.proc.exited).toBe(0);
  }
}, 90_000);

test("demo mode signs webhooks with secrets of its own, kept beside the database: the published Sandbox ones forge nothing", async () => {
  const db = await emptyDatabase("demo");
  // Demo mode starts every emulator; none of the real services is configured.
  const unset = Object.fromEntries(
    ["STRIPE_SECRET_KEY", "CHAPA_SECRET_KEY", "TELEGRAM_BOT_TOKEN", "WHATSAPP_ACCESS_TOKEN", "WHATSAPP_TRANSPORT"].map(
      (k) => [k, ""],
    ),
  );
  const demo = () => boot(1, ["--role", "web"], "demo", db, { ...unset, MYTESS_DEMO: "1" });
  const first = await demo();
  const file = join(dir, "demo-secrets.json");
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const secrets = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  for (const published of ["whsec_sandbox", "chapa_whsec_sandbox", "sandbox", "whatsapp-sandbox-app-secret"])
    expect(Object.values(secrets)).not.toContain(published);

  const post = (port: number, path: string, body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers, body });
  const attempts = async (port: number) => {
    const stripeEvent = JSON.stringify({
      id: `evt_${crypto.randomUUID()}`,
      type: "customer.subscription.updated",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "sub_nobody", object: "subscription", customer: "cus_nobody", status: "active" } },
    });
    const chapaEvent = JSON.stringify({ event: "charge.success", tx_ref: "mytess-nobody", status: "success" });
    const whatsappEvent = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
    const [store] = await db.rows<{ id: number }>("select id from ecommerce_integrations order by id limit 1");
    const order = createShopifyEmulator().control.add({ status: "ready" });
    const shopify = (secret: string) => signedWebhook("orders/create", order, secret);
    const whatsappSig = (secret: string) =>
      `sha256=${createHmac("sha256", secret).update(whatsappEvent).digest("hex")}`;
    const statuses = async (sign: { stripe: string; chapa: string; shopify: string; whatsapp: string }) => {
      const hook = shopify(sign.shopify);
      return [
        (
          await post(port, "/api/webhooks/stripe", stripeEvent, {
            "Stripe-Signature": await signStripePayload(stripeEvent, sign.stripe),
          })
        ).status,
        (
          await post(port, "/api/webhooks/chapa", chapaEvent, {
            "Chapa-Signature": signChapaPayload(chapaEvent, sign.chapa),
          })
        ).status,
        (await post(port, `/api/ecommerce/webhooks/${store!.id}`, hook.body, hook.headers)).status,
        (
          await post(port, "/api/whatsapp/webhook", whatsappEvent, {
            "Content-Type": "application/json",
            "X-Hub-Signature-256": whatsappSig(sign.whatsapp),
          })
        ).status,
      ];
    };
    return {
      published: await statuses({
        stripe: "whsec_sandbox",
        chapa: "chapa_whsec_sandbox",
        shopify: "sandbox",
        whatsapp: "whatsapp-sandbox-app-secret",
      }),
      own: await statuses({
        stripe: secrets.stripeWebhookSecret!,
        chapa: secrets.chapaWebhookSecret!,
        shopify: secrets.shopifyClientSecret!,
        whatsapp: secrets.whatsappAppSecret!,
      }),
    };
  };
  const before = await attempts(first.port);
  expect(before.published).toEqual([400, 400, 401, 401]);
  // Signed with the installation's secrets they are read (an unknown subscription and transaction change nothing).
  expect(before.own[0]).toBe(200);
  expect(before.own[2]).toBe(200);
  expect(before.own[3]).toBe(200);
  expect(before.own[1]).not.toBe(400);

  // The Stripe Sandbox signs with them too: a checkout paid there sets up the card subscription through its webhooks
  // (billed from the end of the new account's free trial).
  const register = await fetch(`http://127.0.0.1:${first.port}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: `http://127.0.0.1:${first.port}` },
    body: JSON.stringify({
      email: "demo-buyer@example.com",
      password: "long-enough-1",
      firstName: "Demo",
      lastName: "Buyer",
      userType: "driver",
    }),
  });
  expect(register.status).toBe(201);
  const cookie = register.headers.getSetCookie()[0]!.split(";")[0]!;
  const as = { Cookie: cookie, "Content-Type": "application/json", Origin: `http://127.0.0.1:${first.port}` };
  const checkout = await fetch(`http://127.0.0.1:${first.port}/api/subscription/checkout`, {
    method: "POST",
    headers: as,
    body: JSON.stringify({ currency: "USD" }),
  });
  expect(checkout.status).toBe(200);
  const url = (await checkout.json()).url as string;
  expect((await fetch(`${url}/pay`, { method: "POST", redirect: "manual" })).status).toBe(303);
  const subscribed = async () => {
    const s = await (await fetch(`http://127.0.0.1:${first.port}/api/subscription/status`, { headers: as })).json();
    return s.provider === "stripe" && typeof s.billingStartsAt === "string";
  };
  expect(await waitFor(subscribed)).toBe(true);
  first.proc.kill("SIGTERM");
  expect(await first.proc.exited).toBe(0);

  // Made once: a second start keeps them, and the demo store still takes webhooks signed with them only.
  const second = await demo();
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(secrets);
  expect(await attempts(second.port)).toEqual(before);
  second.proc.kill("SIGTERM");
  expect(await second.proc.exited).toBe(0);
}, 120_000);
