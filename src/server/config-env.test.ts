// One configuration for every environment variable: read and checked at start, each unusable value named, the
// README's table listing exactly the variables read, and nothing else in the server reading the environment for itself.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ConfigError, loadConfig } from "./config";

const ROOT = join(import.meta.dir, "..", "..");

/** The variables loadConfig reads, whatever their values. */
const variablesRead = () => {
  const seen = new Set<string>();
  loadConfig(
    new Proxy({} as Record<string, string | undefined>, {
      get: (_t, name) => {
        if (typeof name === "string") seen.add(name);
        return undefined;
      },
    }),
  );
  return seen;
};

const errorOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("no error");
};

describe("the configuration", () => {
  test("unset, every variable takes the README's default", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      databaseUrl: null,
      trustProxy: false,
      demo: false,
      oidc: null,
      role: "all",
      logLevel: "info",
      carriers: { timeoutMs: 8000, uspsHourlyQuota: 60 },
      boards: { timeoutMs: 8000, deadlineMs: 4000, sandboxOrigins: [], sandboxUrls: null },
      stores: { timeoutMs: 10_000, sandboxUrls: null },
      telegram: { token: null, apiRoot: "https://api.telegram.org", webhookUrl: null },
      whatsapp: {
        transport: "cloud",
        apiRoot: "https://graph.facebook.com",
        graphVersion: "v23.0",
        web: { bridgeUrl: "http://127.0.0.1:3901", secret: null },
      },
      notifyTimeoutMs: 10_000,
      payments: { timeoutMs: 10_000 },
      cli: { language: "en", calendar: "gregorian", ethiopianTime: false },
    });
    expect(c.databasePath).toEndWith(join("data", "mytess.db"));
    expect(c.webDist).toEndWith(join("dist", "web"));
    expect(c.webConcurrency).toBeGreaterThanOrEqual(1);
  });

  test("values are read as the README says: numbers, switches, lists, credentials in pairs, empty as unset", () => {
    const c = loadConfig({
      PORT: "8080",
      TRUST_PROXY: "true",
      WEB_CONCURRENCY: "3",
      BOARD_DEADLINE_MS: "1500",
      BOARD_PAGE_CACHE_MB: "16",
      UPS_CLIENT_ID: "id",
      UPS_CLIENT_SECRET: "secret",
      UPS_BASE_URL: "https://wwwcie.ups.com/",
      FEDEX_CLIENT_ID: "only-an-id",
      STRIPE_SECRET_KEY: "  ",
      TELEGRAM_BOT_USERNAME: "@MyTessBot",
      MYTESS_LANG: "am_ET.UTF-8",
      MYTESS_CALENDAR: "ethiopic",
    });
    expect(c).toMatchObject({
      port: 8080,
      trustProxy: true,
      webConcurrency: 3,
      boards: { deadlineMs: 1500, pageCacheBytes: 16 * 1024 * 1024 },
    });
    expect(loadConfig({}).boards.pageCacheBytes).toBe(128 * 1024 * 1024);
    expect(loadConfig({ BOARD_PAGE_CACHE_MB: "0" }).boards.pageCacheBytes).toBe(0);
    expect(c.carriers.ups).toEqual({
      clientId: "id",
      clientSecret: "secret",
      accountNumber: null,
      baseUrl: "https://wwwcie.ups.com",
    });
    // What a carrier lacks is the registry's to say (FedEx here: its secret and account number).
    expect(c.carriers.fedex).toMatchObject({ clientId: "only-an-id", clientSecret: null, accountNumber: null });
    expect(c.payments.stripe.secretKey).toBeNull();
    expect(c.telegram.username).toBe("MyTessBot");
    expect(c.cli).toMatchObject({ language: "am", calendar: "ethiopic" });
    expect(
      loadConfig({ SMTP_URL: "smtps://u:p@mail.example.com:465", MAIL_FROM: "MyTess <hello@mytess.example>" }).mail,
    ).toEqual({ smtpUrl: "smtps://u:p@mail.example.com:465", from: "MyTess <hello@mytess.example>", sandboxDir: null });
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: "MyTess <no-reply@localhost>", sandboxDir: null });
  });

  test("every value that cannot be used stops the start, each named in one error", () => {
    const message = errorOf({
      PORT: "eighty",
      BOARD_TIMEOUT_MS: "-5",
      BOARD_PAGE_CACHE_MB: "lots",
      TRUST_PROXY: "maybe",
      WHATSAPP_TRANSPORT: "webjs",
      OIDC_ISSUER: "https://id.example.com",
      DATABASE_URL: "mysql://db/mytess",
      STORE_SANDBOX_URLS: "not json",
      MYTESS_ROLE: "cron",
      TELEGRAM_API_ROOT: "ftp://telegram.example",
      SMTP_URL: "https://mail.example.com",
      MAIL_FROM: "MyTess",
    });
    const lines = message.split("\n");
    expect(lines).toContain('PORT must be a whole number from 0 to 65535 (got "eighty")');
    expect(lines).toContain('BOARD_TIMEOUT_MS must be a whole number from 1 to 9007199254740991 (got "-5")');
    expect(lines).toContain('BOARD_PAGE_CACHE_MB must be a whole number from 0 to 9007199254740991 (got "lots")');
    expect(lines).toContain('TRUST_PROXY must be 1 or 0 (or true or false) (got "maybe")');
    expect(lines).toContain('WHATSAPP_TRANSPORT must be cloud or web (got "webjs")');
    expect(lines).toContain(
      "OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: required with OIDC_ISSUER (OpenID Connect needs all three)",
    );
    expect(lines).toContain('DATABASE_URL must be a postgres:// URL (got "mysql://db/mytess")');
    expect(lines).toContain('STORE_SANDBOX_URLS must be a JSON object of names to http URLs (got "not json")');
    expect(lines).toContain('MYTESS_ROLE must be one of all, web, worker (got "cron")');
    expect(lines).toContain('TELEGRAM_API_ROOT must be an http or https URL (got "ftp://telegram.example")');
    expect(lines).toContain(
      'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587 (got "https://mail.example.com")',
    );
    expect(lines).toContain('MAIL_FROM must be an address such as "MyTess <no-reply@example.com>" (got "MyTess")');
    expect(lines).toHaveLength(12);
  });

  test("the checks of the integrations' own variables stop the start too, with their own words", () => {
    expect(errorOf({ MYTESS_SECRET_KEY: "short" })).toBe(
      "MYTESS_SECRET_KEY must be 32 bytes, in base64 or as 64 hex digits",
    );
    expect(errorOf({ TELEGRAM_WEBHOOK_URL: "https://mytess.example/api/telegram/webhook" })).toStartWith(
      "TELEGRAM_WEBHOOK_SECRET (1–256 of A-Z, a-z, 0-9, _ and -) is required with TELEGRAM_WEBHOOK_URL",
    );
    expect(errorOf({ WHATSAPP_WEB_SECRET: "short" })).toBe("WHATSAPP_WEB_SECRET must be at least 16 characters");
    expect(errorOf({ VAPID_SUBJECT: "ops@mytess.example" })).toBe(
      `VAPID_SUBJECT: "ops@mytess.example" is not a mailto: address or an https: URL`,
    );
    expect(errorOf({ SANDBOX_ORIGINS: "10.0.0.7" })).toStartWith("SANDBOX_ORIGINS must list origins");
  });

  test("the README's table lists every variable read, and nothing else", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("### WhatsApp Web"));
    const documented = new Set([...section.matchAll(/`([A-Z][A-Z0-9_]{2,})(?:=[^`]*)?`/g)].map((m) => m[1]!));
    // The operating system's own variables, read for the CLI's language and a support grant's author.
    const system = new Set(["LANG", "LC_ALL", "LC_MESSAGES", "USER"]);
    const read = [...variablesRead()].filter((v) => !system.has(v)).sort();
    expect(read.filter((v) => !documented.has(v))).toEqual([]);
    expect([...documented].filter((v) => !read.includes(v) && !system.has(v)).sort()).toEqual([
      // Read when building the web app (Vite), not by the server.
      "VITE_MAP_STYLE_URL",
    ]);
  });

  test("outside the configuration, the server reads the environment only where the README's table says why", () => {
    // The database layer decides its engine from DATABASE_URL before any configuration exists (the configuration
    // checks the same value); the logger reads LOG_LEVEL at each line; main.ts hands the environment on to its server
    // processes and the WhatsApp Web bridge and checks the settings production needs; the rest is the configuration
    // itself, the demo launcher writing its emulators' addresses, the CLI silencing its log, and the registries'
    // helpers that read a given environment (process.env by default).
    const allowed = new Map([
      ["src/server/config.ts", 1],
      ["src/server/logger.ts", 1],
      ["src/server/main.ts", 3],
      ["src/demo/main.ts", 1],
      ["cli/index.ts", 1],
      ["cli/commands/whatsapp.ts", 1],
      ["db/client.ts", 3],
      ["db/engine.ts", 2],
      ["src/server/integrations/carriers/registry.ts", 1],
      ["src/server/integrations/notifiers/registry.ts", 1],
      ["src/server/integrations/payments/registry.ts", 1],
      ["src/server/integrations/stores/services.ts", 1],
    ]);
    const found = new Map<string, number>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          if (name !== "node_modules" && name !== "testing") walk(path);
        } else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.test\.ts$|testing\.ts$|-testing\.ts$/.test(name)) {
          const n = (readFileSync(path, "utf8").match(/process\.env\b/g) ?? []).length;
          if (n) found.set(relative(ROOT, path), n);
        }
      }
    };
    for (const dir of ["src/server", "src/demo", "cli", "db"]) walk(join(ROOT, dir));
    expect(Object.fromEntries(found)).toEqual(Object.fromEntries(allowed));
  });
});
