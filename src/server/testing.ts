// Test helpers: a fresh database (SQLite in memory, or a PostgreSQL copy of a migrated template) and the app around
// it, driven through app.handle (no port).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { type DbHandle, openTestDb } from "../../db/client";
import { jobs, users } from "../../db/tables";
import { loadConfig, type TConfig } from "./config";
import { createApp } from "./http/app";
import { createBoardServices, type TBoardServices } from "./integrations/boards/services";
import { carriersFromEnv, type TCarrierRegistry } from "./integrations/carriers/registry";
import { notifiersFromEnv, type TNotifierRegistry } from "./integrations/notifiers/registry";
import { noPayments, type TPaymentServices } from "./integrations/payments/services";
import { EMAIL_VERIFICATION_MAIL } from "./modules/accounts/jobs";
import { createSecretBox, loadSecretKey } from "./secrets";
import { createServices } from "./services";

/**
 * Board (and store) services for tests: a key of this process, short time limits, and `sandbox`: the test's emulators,
 * the only loopback addresses configurations may use (what SANDBOX_ORIGINS and the demo's emulators are in a server).
 */
export const testBoardServices = (
  o: { timeoutMs?: number; deadlineMs?: number; liveCacheMs?: number; sandbox?: readonly string[] } = {},
) =>
  createBoardServices({
    secrets: createSecretBox(loadSecretKey({}, null)),
    sandboxOrigins: o.sandbox ?? [],
    timeoutMs: o.timeoutMs ?? 3000,
    deadlineMs: o.deadlineMs ?? 1500,
    liveCacheMs: o.liveCacheMs ?? 0,
  });

process.env.LOG_LEVEL ??= "silent";

// Databases the tests opened and have not closed. On PostgreSQL each holds connections and a database of its own, so
// a file that makes one per test closes them after each: `afterEach(closeTestApps)`.
const openHandles = new Set<DbHandle>();
/** Closes every database a test app opened (and, on PostgreSQL, drops it). */
const storageDirs = new Set<string>();

/** A fresh folder for a test's uploaded files, removed by closeTestApps. */
export const testStorageDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "mytess-files-"));
  storageDirs.add(dir);
  return dir;
};

export const closeTestApps = async () => {
  for (const h of [...openHandles]) await h.close();
  for (const dir of storageDirs) rmSync(dir, { recursive: true, force: true });
  storageDirs.clear();
};

export const createTestApp = async (
  overrides: Partial<TConfig> = {},
  carriers: TCarrierRegistry = carriersFromEnv({}),
  notifiers: TNotifierRegistry = notifiersFromEnv({}, { vapidKeyFile: null }),
  boards: TBoardServices = testBoardServices(),
  payments: TPaymentServices = noPayments,
) => {
  const opened = await openTestDb();
  let closing: Promise<void> | null = null;
  const handle: DbHandle = {
    ...opened,
    close: () => {
      openHandles.delete(handle);
      closing ??= opened.close();
      return closing;
    },
  };
  openHandles.add(handle);
  const config: TConfig = {
    ...loadConfig({}),
    webDist: "/nonexistent",
    trustProxy: true,
    storage: { kind: "local", dir: testStorageDir() },
    ...overrides,
  };
  // The services every door of the app shares, with the test's own carriers, notifiers, boards and payments.
  const services = createServices(config, { carriers, notifiers, boards, payments });
  const app = createApp({ db: handle.db, config, services });
  /**
   * Raw SQL for a test's own look at the database (rows as objects), written once for both engines: `?` parameters,
   * and CAST(… AS INTEGER) where a count must come back as a number (PostgreSQL's count is a bigint).
   */
  const rows = async <T = Record<string, unknown>>(sql: string, ...args: (string | number | null)[]): Promise<T[]> => {
    if (handle.sqlite) return handle.sqlite.query<T, (string | number | null)[]>(sql).all(...args);
    let n = 0;
    return [
      ...(await handle.pg!.unsafe(
        sql.replace(/\?/g, () => `$${++n}`),
        args as never[],
      )),
    ] as T[];
  };
  /** The application's tables (not the migrator's bookkeeping), for tests that look at everything. */
  const tableNames = async () =>
    (
      await rows<{ name: string }>(
        handle.sqlite
          ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'"
          : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      )
    )
      .map((r) => r.name)
      .sort();
  return { app, db: handle.db, services, rows, tableNames, engine: handle.engine, config, close: handle.close };
};

export type TTestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A tiny cookie-keeping client, like a browser tab for one user. */
export const createClient = (t: TTestApp, ip = "10.0.0.1") => {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await t.app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...(jar.size ? { Cookie: cookieHeader() } : {}),
          "X-Forwarded-For": ip,
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      if (!value || /max-age=0/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, headers: res.headers, json, text };
  };
  return {
    /** The app this client talks to (test helpers reach its database). */
    app: t,
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call("PUT", path, body ?? {}, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => call("PATCH", path, body ?? {}, headers),
    del: (path: string, body?: unknown, headers?: Record<string, string>) => call("DELETE", path, body, headers),
    /** The cookie header this client sends; assigning replaces the jar (to replay a stolen cookie). */
    get cookie() {
      return cookieHeader();
    },
    set cookie(v: string) {
      jar.clear();
      for (const pair of v
        .split(";")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [name, ...rest] = pair.split("=");
        jar.set(name, rest.join("="));
      }
    },
  };
};

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}.${Date.now()}.${++counter}@example.com`;

/**
 * Signs up through the API. The account's email counts as proven (as if its link had been opened), since most tests
 * post and fund loads freely; `{ verified: false }` keeps it unproven, for the tests of what waits for a proven contact.
 */
export const registerUser = async (
  client: ReturnType<typeof createClient>,
  userType: "driver" | "shipper",
  extra: Record<string, unknown> = {},
  o: { verified?: boolean } = {},
) => {
  const res = await client.post("/api/auth/register", {
    email: uniqueEmail(userType),
    password: "correct-horse-battery",
    firstName: userType === "driver" ? "Dawit" : "Hana",
    lastName: "Alemu",
    userType,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  if (o.verified !== false) {
    const id = res.json.user.id as number;
    await client.app.db.update(users).set({ emailVerifiedAt: Date.now() }).where(eq(users.id, id));
    // The sign-up's link is no longer wanted: tests that run the queue see only the jobs they make.
    const links = await client.app.db
      .select({ id: jobs.id, payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.kind, EMAIL_VERIFICATION_MAIL.kind), eq(jobs.status, "pending")));
    const mine = links.filter((j) => j.payload.userId === id).map((j) => j.id);
    if (mine.length) await client.app.db.delete(jobs).where(inArray(jobs.id, mine));
    res.json.user.emailVerified = true;
  }
  return res.json.user as { id: number; email: string; userType: string };
};

const DAY = 24 * 60 * 60 * 1000;

/**
 * A valid body for POST /api/loads: Addis Ababa (Kality) to Adama, about 50 miles as the crow flies, picked up in three
 * days. `over` replaces fields; a field set to undefined is left out of the request.
 */
export const loadInput = (over: Record<string, unknown> = {}) => ({
  title: "Cement, 40 t",
  description: "Bagged cement",
  equipmentType: "flatbed",
  pickupAddress: "Kality Customs Terminal",
  pickupCity: "Addis Ababa",
  pickupState: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 8.9,
  pickupLongitude: 38.77,
  deliveryAddress: "Adama Industrial Park",
  deliveryCity: "Adama",
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 8.54,
  deliveryLongitude: 39.27,
  pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
  deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
  weight: 40000,
  budgetAmount: 1000,
  budgetCurrency: "USD",
  ...over,
});

/**
 * The app of the HTTP tests that talk to outside systems on loopback (store and board emulators, webhook receivers):
 * its outside calls may reach the `sandbox` origins, and one signed-in user per role given, in that order, each on its
 * own client and address (`ips`, else 10.0.0.1, 10.0.0.2, …) so per-address limits do not mix them.
 */
export const sandboxApp = async (
  sandbox: readonly string[],
  roles: readonly ("driver" | "shipper")[],
  o: { boards?: Omit<Parameters<typeof testBoardServices>[0], "sandbox">; ips?: readonly string[] } = {},
) => {
  const t = await createTestApp({}, undefined, undefined, testBoardServices({ ...o.boards, sandbox }));
  const clients = roles.map((_, i) => createClient(t, o.ips?.[i] ?? `10.0.0.${i + 1}`));
  const ids: number[] = [];
  for (const [i, role] of roles.entries()) ids.push((await registerUser(clients[i]!, role)).id);
  return { t, clients, ids };
};
