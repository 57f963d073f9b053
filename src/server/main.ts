// Starts MyTess in a role: `web` (HTTP), `worker` (background jobs) or, by default, both on one box (`--role` or
// MYTESS_ROLE). The primary process applies migrations; the web role either serves itself (WEB_CONCURRENCY=1) or starts
// one server process per core, all listening on the same port (SO_REUSEPORT) over the same SQLite file in WAL mode;
// the worker role runs the job worker in the primary process. One set of services serves every role of a process, so
// the web role and the worker share token caches and hourly budgets. SIGTERM drains requests in flight, lets the
// running job finish, and closes the database. Demo mode's emulators and data come from the demo launcher
// (src/demo/main.ts), which starts them and then this file; nothing here reaches them.
import { type DbHandle, migrateDb, openConfiguredDb } from "../../db/client";
import { databaseLabel, ENGINE } from "../../db/engine";
import { createTelegramBot } from "./bots/telegram/bot";
import { startTelegramPoller } from "./bots/telegram/poller";
import { WHATSAPP_WEB_INBOUND_PATH } from "./bots/whatsapp/web-inbound";
import { bridgeEnv, startWhatsAppWebBridge } from "./bots/whatsapp/web-supervisor";
import { ConfigError, checkProductionSettings, loadConfig, type TConfig } from "./config";
import { createApp } from "./http/app";
import { MAX_JSON_BODY_BYTES } from "./http/body";
import { vapidKeyFileFor } from "./integrations/notifiers/registry";
import { sessionDirFor } from "./integrations/notifiers/whatsapp-web";
import { SHOPIFY_API_VERSION, shopifyVersionWarning } from "./integrations/stores/shopify";
import type { TWorker } from "./jobs/worker";
import { logger } from "./logger";
import { purgeExpiredSessions } from "./modules/accounts/sessions";
import { jobRegistry, startWorker } from "./modules/jobs";
import { sealPayoutNumbers } from "./modules/payouts/payouts";
import { createServices, type TServices } from "./services";

const ROLES = ["all", "web", "worker"] as const;
const roleArg =
  process.argv.find((_a, i) => process.argv[i - 1] === "--role") ??
  process.argv.find((a) => a.startsWith("--role="))?.slice(7);
if (roleArg !== undefined && !(ROLES as readonly string[]).includes(roleArg)) {
  console.error(`--role must be one of ${ROLES.join(", ")} (got "${roleArg}")`);
  process.exit(2);
}

let config: TConfig;
try {
  config = loadConfig();
  checkProductionSettings(process.env, config);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`MyTess cannot start; fix these settings:\n${err.message}`);
  process.exit(2);
}
if (config.demo && !config.boards.sandboxUrls) {
  console.error("MYTESS_DEMO is set by the demo launcher, which starts the emulators first: run `bun run demo`");
  process.exit(2);
}

const role = (roleArg as TConfig["role"] | undefined) ?? config.role;
// A server process started by the primary (one per core); it serves HTTP only.
const isServerChild = config.serverChild;
const runsWeb = role !== "worker";
const runsJobs = role !== "web" && !isServerChild;
const concurrency = config.webConcurrency;
const hostname = config.host;
const baseUrl = config.publicUrl ?? `http://localhost:${config.port}`;

/**
 * Migrations, then what needs the server key after them (payout numbers saved before they were sealed), then
 * sessions that expired while no server ran.
 */
const prepare = async (services: TServices) => {
  const handle = await openConfiguredDb(config.databasePath);
  await migrateDb(handle.db);
  const sealed = await sealPayoutNumbers(handle.db, services.secrets);
  if (sealed) logger.info("payout account numbers sealed", { count: sealed });
  await purgeExpiredSessions(handle.db);
  return handle;
};

// On PostgreSQL several machines may serve one deployment: a key file beside each one's data directory would give
// each its own VAPID key, and a browser subscribed through one machine could not be pushed to from another.
if (ENGINE === "pg" && !config.webPush.vapidKeys && !isServerChild) {
  logger.warn("set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on every machine: push keys are per machine without them", {
    keyFile: vapidKeyFileFor(config.databasePath),
  });
}

// Shopify keeps a version for at least a year: the pinned one is moved on before its support ends.
const shopifyVersion = isServerChild ? null : shopifyVersionWarning(SHOPIFY_API_VERSION, Date.now());
if (shopifyVersion) logger.warn(shopifyVersion, { version: SHOPIFY_API_VERSION });

/** The job worker in this process, and a SIGTERM that lets its running job finish before the database closes. */
const startJobs = (handle: DbHandle, services: TServices) => {
  const worker = startWorker({ db: handle.db, log: logger, handlers: jobRegistry(services, baseUrl) });
  logger.info("job worker started");
  const telegram = startTelegram(handle, services);
  const whatsappWeb = startWhatsAppWeb(handle, services);
  return {
    ...worker,
    stop: async () => Promise.all([telegram?.stop(), whatsappWeb?.stop(), worker.stop()]).then(() => undefined),
  };
};

/**
 * WHATSAPP_TRANSPORT=web: the WhatsApp Web bridge, run by the one worker holding its lease. It posts the messages people
 * send to the linked number to this deployment's web role, on this machine unless WHATSAPP_WEB_INBOUND_URL says where.
 */
const startWhatsAppWeb = (handle: DbHandle, services: TServices) => {
  const web = services.notifiers.whatsappWeb;
  if (!web) return null;
  const local = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  const env = bridgeEnv(process.env, {
    secret: web.secret,
    bridgeUrl: web.bridgeUrl,
    inboundUrl:
      config.whatsapp.web.inboundUrl ??
      `http://${local.includes(":") ? `[${local}]` : local}:${config.port}${WHATSAPP_WEB_INBOUND_PATH}`,
    sessionDir: sessionDirFor(config.whatsapp.web.sessionDir, config.databasePath),
    chromiumPath: config.whatsapp.chromiumPath ?? undefined,
  });
  return startWhatsAppWebBridge({ db: handle.db, log: logger, env });
};

/**
 * The Telegram bot in the worker role: long polling by the one worker holding the lease, or, with
 * TELEGRAM_WEBHOOK_URL, the webhook registered here (the web role answers it at /api/telegram/webhook).
 */
const startTelegram = (handle: DbHandle, services: TServices) => {
  const { token, apiRoot, webhookUrl, webhookSecret } = config.telegram;
  if (!token) return null;
  const bot = createTelegramBot({ token, apiRoot }, { db: handle.db, services, baseUrl });
  if (webhookUrl && webhookSecret) {
    void bot.api
      .setWebhook(webhookUrl, { secret_token: webhookSecret })
      .then(() => logger.info("telegram webhook set", { url: webhookUrl }))
      .catch((err) => logger.error("telegram webhook could not be set", { error: String(err) }));
    return null;
  }
  return startTelegramPoller({ db: handle.db, bot, log: logger });
};

const serve = (handle: DbHandle, services: TServices, worker: TWorker | null) => {
  const app = createApp({ db: handle.db, config, services });
  // Bun stops reading a body past this size (413) before any handler runs; routes apply their own 1 MB JSON limit.
  app.listen({ port: config.port, hostname, reusePort: concurrency > 1, maxRequestBodySize: 2 * MAX_JSON_BODY_BYTES });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Stop accepting connections and wait for requests in flight and the running job, then close the database.
    await app.live.stop();
    await Promise.all([app.server?.stop(false), worker?.stop()]);
    await handle.close();
    if (!isServerChild) logger.info("stopped", { signal });
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
};

const workerOnly = (handle: DbHandle, services: TServices) => {
  const worker = startJobs(handle, services);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    await handle.close();
    logger.info("stopped", { signal });
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
};

const services = createServices(config);

if (isServerChild) {
  serve(await openConfiguredDb(config.databasePath), services, null);
} else if (!runsWeb) {
  workerOnly(await prepare(services), services);
  logger.info("MyTess worker is running", { database: databaseLabel(config.databasePath), role });
} else {
  const handle = await prepare(services);
  const where = {
    url: `http://localhost:${config.port}`,
    database: databaseLabel(config.databasePath),
    demo: config.demo,
    processes: concurrency,
    role,
  };
  if (concurrency === 1) {
    serve(handle, services, runsJobs ? startJobs(handle, services) : null);
    logger.info("MyTess is listening", where);
  } else {
    // The primary supervises the server processes and, in the default role, runs the job worker itself.
    const worker = runsJobs ? startJobs(handle, services) : null;
    if (!worker) await handle.close();
    let stopping = false;
    const children = new Set<ReturnType<typeof Bun.spawn>>();
    const start = (restarts = 0) => {
      const child = Bun.spawn(["bun", import.meta.path], {
        env: { ...process.env, MYTESS_SERVER_CHILD: "1", WEB_CONCURRENCY: String(concurrency) },
        stdout: "inherit",
        stderr: "inherit",
        onExit: (proc, code) => {
          children.delete(proc);
          if (stopping) return;
          logger.error("server process exited; starting another", { code });
          setTimeout(() => start(restarts + 1), Math.min(30_000, 500 * 2 ** restarts));
        },
      });
      children.add(child);
    };
    for (let i = 0; i < concurrency; i++) start();
    logger.info("MyTess is listening", where);
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      for (const c of children) c.kill("SIGTERM");
      await Promise.all([...[...children].map((c) => c.exited), worker?.stop()]);
      if (worker) await handle.close();
      logger.info("stopped", { signal });
      process.exit(0);
    };
    process.on("SIGTERM", () => void shutdown("SIGTERM"));
    process.on("SIGINT", () => void shutdown("SIGINT"));
  }
}
