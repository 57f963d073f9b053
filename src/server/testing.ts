// Test helpers: a fresh in-memory database and the app around it, driven through app.handle (no port).
import { openTestDb } from "../../db/client";
import { loadConfig, type TConfig } from "./config";
import { createApp } from "./http/app";
import { carriersFromEnv, type TCarrierRegistry } from "./integrations/carriers/registry";

process.env.LOG_LEVEL ??= "silent";

export const createTestApp = async (
  overrides: Partial<TConfig> = {},
  carriers: TCarrierRegistry = carriersFromEnv({}),
) => {
  const handle = await openTestDb();
  const config: TConfig = { ...loadConfig({}), webDist: "/nonexistent", trustProxy: true, ...overrides };
  const app = createApp({ db: handle.db, config, carriers });
  /** Raw SQL for a test's own look at the database (rows as objects). */
  const rows = async <T = Record<string, unknown>>(sql: string, ...args: (string | number | null)[]) =>
    handle.sqlite.query<T, (string | number | null)[]>(sql).all(...args);
  return { app, db: handle.db, rows, config, close: handle.close };
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
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call("PUT", path, body ?? {}, headers),
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

export const registerUser = async (
  client: ReturnType<typeof createClient>,
  userType: "driver" | "shipper",
  extra: Record<string, unknown> = {},
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
  return res.json.user as { id: number; email: string; userType: string };
};
