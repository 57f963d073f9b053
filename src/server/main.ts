// Starts MyTess in a role: `web` (HTTP), `worker` (background jobs) or, by default, both on one box (`--role` or
// MYTESS_ROLE). The primary process applies migrations (and seeds demo data in demo mode); the web role either serves
// itself (WEB_CONCURRENCY=1) or starts one server process per core, all listening on the same port (SO_REUSEPORT) over
// the same SQLite file in WAL mode; the worker role runs the job worker in the primary process. SIGTERM drains requests
// in flight, lets the running job finish, and closes the database.
import { availableParallelism } from "node:os";
import { type DbHandle, migrateDb, openConfiguredDb } from "../../db/client";
import { databaseLabel, ENGINE } from "../../db/engine";
import { isDatabaseEmpty, seedDemo } from "../../db/seed/demo";
import { startBoardEmulators } from "../../emulators/boards/server";
import { emulatorEnv, startCarrierEmulators } from "../../emulators/carriers/server";
import { startNotifyEmulators } from "../../emulators/notify/server";
import { startPaymentEmulators } from "../../emulators/payments/server";
import { startStoreEmulators } from "../../emulators/stores/server";
import { createTelegramBot } from "./bots/telegram/bot";
import { startTelegramPoller } from "./bots/telegram/poller";
import { telegramWebhookSecret } from "./bots/telegram/webhook";
import { WHATSAPP_WEB_INBOUND_PATH } from "./bots/whatsapp/web-inbound";
import { bridgeEnv, startWhatsAppWebBridge } from "./bots/whatsapp/web-supervisor";
import { checkProductionSettings, loadConfig } from "./config";
import { demoSecretsFileFor, loadDemoSecrets, type TDemoSecrets } from "./demo-secrets";
import { purgeExpiredSessions } from "./domain/auth/sessions";
import { ensureDemoStores } from "./domain/ecommerce/demo";
import { ensureDemoBoards } from "./domain/marketplaces/demo";
import { createApp } from "./http/app";
import { MAX_JSON_BODY_BYTES } from "./http/body";
import { boardServicesForDatabase, type TBoardServices } from "./integrations/boards/services";
import { carriersFromEnv } from "./integrations/carriers/registry";
import { notifiersFromEnv, vapidKeyFileFor } from "./integrations/notify/registry";
import { telegramApiRoot } from "./integrations/notify/telegram";
import { whatsappWebSecretFileFor, whatsappWebSessionDir } from "./integrations/notify/whatsapp-web";
import { paymentsFromEnv } from "./integrations/payments/registry";
import { storeServicesFrom } from "./integrations/stores/services";
import { SHOPIFY_API_VERSION, shopifyVersionWarning } from "./integrations/stores/shopify";
import { jobHandlers, startWorker, type TWorker } from "./jobs/worker";
import { logger } from "./logger";

const config = loadConfig();
try {
  checkProductionSettings(process.env, config);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
// A server process started by the primary (one per core); it serves HTTP only.
const isServerChild = process.env.MYTESS_SERVER_CHILD === "1";
const ROLES = ["all", "web", "worker"] as const;
const roleArg =
  process.argv.find((_a, i) => process.argv[i - 1] === "--role") ??
  process.argv.find((a) => a.startsWith("--role="))?.slice(7);
const role = (roleArg ?? process.env.MYTESS_ROLE ?? "all") as (typeof ROLES)[number];
if (!ROLES.includes(role)) {
  console.error(`--role must be one of ${ROLES.join(", ")} (got "${role}")`);
  process.exit(2);
}
const runsWeb = role !== "worker";
const runsJobs = role !== "web" && !isServerChild;
const concurrency = Math.max(1, Number(process.env.WEB_CONCURRENCY ?? availableParallelism()) || 1);
const hostname = process.env.HOST ?? "0.0.0.0";

/**
 * Demo mode: every carrier and notification channel the environment does not name is answered by its local emulator
 * (the interface labels them "Sandbox").
 */
let demoBoardUrls: Awaited<ReturnType<typeof startBoardEmulators>>["urls"] | null = null;
let demoStoreUrls: Awaited<ReturnType<typeof startStoreEmulators>>["urls"] | null = null;
let demoSecrets: TDemoSecrets | null = null;
const startDemoEmulators = () => {
  // The emulators sign webhooks with this installation's secrets, never the published Sandbox ones.
  const secrets = loadDemoSecrets(demoSecretsFileFor(config.databasePath));
  demoSecrets = secrets;
  const boards = startBoardEmulators();
  demoBoardUrls = boards.urls;
  process.env.BOARD_SANDBOX_URLS = JSON.stringify(boards.urls);
  // Stripe and Chapa: a new user can buy premium end to end against the Sandboxes, whose webhooks come back here.
  if (!process.env.STRIPE_SECRET_KEY && !process.env.CHAPA_SECRET_KEY) {
    const pay = startPaymentEmulators(
      {},
      { webhookSecrets: { stripe: secrets.stripeWebhookSecret, chapa: secrets.chapaWebhookSecret } },
    );
    for (const [key, value] of Object.entries(pay.env())) process.env[key] = value;
    const self = `http://localhost:${config.port}`;
    pay.controls.stripe.setWebhookUrl(`${self}/api/webhooks/stripe`);
    pay.controls.chapa.setWebhookUrl(`${self}/api/webhooks/chapa`);
    logger.info("demo: payment emulators started", pay.urls);
  }
  const stores = startStoreEmulators({}, { shopifyClientSecret: secrets.shopifyClientSecret });
  // One Sandbox shop serves every demo store (one cost bucket); Shopify Plus's refill rate keeps their syncs quick.
  stores.controls.shopify.restoreRate = 1000;
  demoStoreUrls = stores.urls;
  process.env.STORE_SANDBOX_URLS = JSON.stringify(stores.urls);
  logger.info("demo: store emulators started", stores.urls);
  logger.info("demo: load-board emulators started", boards.urls);
  const channels = {
    telegram: !process.env.TELEGRAM_BOT_TOKEN,
    // WhatsApp Web links a real phone: no emulator stands in for it.
    whatsapp: !process.env.WHATSAPP_ACCESS_TOKEN && process.env.WHATSAPP_TRANSPORT !== "web",
  };
  if (channels.telegram || channels.whatsapp) {
    // Fixed ports only when asked (the browser tests play Telegram and WhatsApp users through the emulators' controls).
    const notify = startNotifyEmulators(
      {
        telegram: Number(process.env.DEMO_TELEGRAM_PORT) || undefined,
        whatsapp: Number(process.env.DEMO_WHATSAPP_PORT) || undefined,
      },
      { whatsapp: { appSecret: secrets.whatsappAppSecret, verifyToken: secrets.whatsappVerifyToken } },
    );
    for (const [key, value] of Object.entries(notify.env())) {
      const forTelegram = key.startsWith("TELEGRAM_");
      const forWhatsApp = key.startsWith("WHATSAPP_");
      if ((forTelegram && channels.telegram) || (forWhatsApp && channels.whatsapp)) process.env[key] = value;
    }
    logger.info("demo: notification emulators started", {
      telegram: notify.urls.telegram,
      whatsapp: notify.urls.whatsapp,
    });
  }
  const missing = (["FEDEX", "UPS", "USPS"] as const).filter((c) => !process.env[`${c}_CLIENT_ID`]);
  if (!missing.length) return;
  const emu = startCarrierEmulators();
  for (const [key, value] of Object.entries(emulatorEnv(emu.urls))) {
    if (missing.some((c) => key.startsWith(`${c}_`))) process.env[key] = value;
  }
  logger.info("demo: carrier emulators started", { carriers: missing, urls: emu.urls });
};

const prepare = async () => {
  const handle = await openConfiguredDb(config.databasePath);
  await migrateDb(handle.db);
  await purgeExpiredSessions(handle.db);
  if (config.demo && (await isDatabaseEmpty(handle.db))) {
    const summary = await seedDemo(handle.db);
    logger.info("demo data seeded", summary);
  }
  if (config.demo && demoBoardUrls) {
    const boards = boardServicesForDatabase(process.env, config.databasePath, true);
    const { created } = await ensureDemoBoards(handle.db, boards, demoBoardUrls);
    if (created) logger.info("demo: sandbox load boards configured", { created });
    if (demoStoreUrls) {
      const stores = await ensureDemoStores(
        handle.db,
        storeServicesFrom(boards),
        demoStoreUrls,
        demoSecrets!.shopifyClientSecret,
      );
      if (stores.created) logger.info("demo: sandbox Shopify stores configured", stores);
    }
  }
  return handle;
};

// On PostgreSQL several machines may serve one deployment: a key file beside each one's data directory would give
// each its own VAPID key, and a browser subscribed through one machine could not be pushed to from another.
if (ENGINE === "pg" && !process.env.VAPID_PUBLIC_KEY && !isServerChild) {
  logger.warn("set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on every machine: push keys are per machine without them", {
    keyFile: vapidKeyFileFor(config.databasePath),
  });
}

// Shopify keeps a version for at least a year: the pinned one is moved on before its support ends.
const shopifyVersion = isServerChild ? null : shopifyVersionWarning(SHOPIFY_API_VERSION, Date.now());
if (shopifyVersion) logger.warn(shopifyVersion, { version: SHOPIFY_API_VERSION });

/** The job worker in this process, and a SIGTERM that lets its running job finish before the database closes. */
const startJobs = (handle: DbHandle) => {
  const notifiers = notifiersFromEnv(process.env, {
    vapidKeyFile: vapidKeyFileFor(config.databasePath),
    whatsappWebSecretFile: whatsappWebSecretFileFor(config.databasePath),
  });
  const baseUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const boards = boardServicesForDatabase(process.env, config.databasePath, config.demo);
  const stores = storeServicesFrom(boards);
  const worker = startWorker({
    db: handle.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl, boards, stores }),
  });
  logger.info("job worker started");
  const telegram = startTelegram(handle, notifiers, boards, baseUrl);
  const whatsappWeb = startWhatsAppWeb(handle, notifiers);
  return {
    ...worker,
    stop: async () => Promise.all([telegram?.stop(), whatsappWeb?.stop(), worker.stop()]).then(() => undefined),
  };
};

/**
 * WHATSAPP_TRANSPORT=web: the WhatsApp Web bridge, run by the one worker holding its lease. It posts the messages people
 * send to the linked number to this deployment's web role, on this machine unless WHATSAPP_WEB_INBOUND_URL says where.
 */
const startWhatsAppWeb = (handle: DbHandle, notifiers: ReturnType<typeof notifiersFromEnv>) => {
  const web = notifiers.whatsappWeb;
  if (!web) return null;
  const local = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  const env = bridgeEnv(process.env, {
    secret: web.secret,
    bridgeUrl: web.bridgeUrl,
    inboundUrl:
      process.env.WHATSAPP_WEB_INBOUND_URL ??
      `http://${local.includes(":") ? `[${local}]` : local}:${config.port}${WHATSAPP_WEB_INBOUND_PATH}`,
    sessionDir: whatsappWebSessionDir(process.env, config.databasePath),
    chromiumPath: process.env.CHROMIUM_PATH,
  });
  return startWhatsAppWebBridge({ db: handle.db, log: logger, env });
};

/**
 * The Telegram bot in the worker role: long polling by the one worker holding the lease, or, with
 * TELEGRAM_WEBHOOK_URL, the webhook registered here (the web role answers it at /api/telegram/webhook).
 */
const startTelegram = (
  handle: DbHandle,
  notifiers: ReturnType<typeof notifiersFromEnv>,
  boards: TBoardServices,
  baseUrl: string,
) => {
  const token = process.env.TELEGRAM_BOT_TOKEN;
  if (!token) return null;
  const bot = createTelegramBot(
    { token, apiRoot: telegramApiRoot(process.env) },
    {
      db: handle.db,
      services: {
        carriers: carriersFromEnv(),
        notifiers,
        boards,
        stores: storeServicesFrom(boards),
        payments: paymentsFromEnv(process.env),
        log: logger,
      },
      baseUrl,
    },
  );
  const webhook = process.env.TELEGRAM_WEBHOOK_URL;
  if (webhook) {
    void bot.api
      .setWebhook(webhook, { secret_token: telegramWebhookSecret() })
      .then(() => logger.info("telegram webhook set", { url: webhook }))
      .catch((err) => logger.error("telegram webhook could not be set", { error: String(err) }));
    return null;
  }
  return startTelegramPoller({ db: handle.db, bot, log: logger });
};

const serve = (handle: DbHandle, worker: TWorker | null) => {
  const app = createApp({ db: handle.db, config });
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

const workerOnly = (handle: DbHandle) => {
  const worker = startJobs(handle);
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

if (isServerChild) {
  serve(await openConfiguredDb(config.databasePath), null);
} else if (!runsWeb) {
  if (config.demo) startDemoEmulators();
  workerOnly(await prepare());
  logger.info("MyTess worker is running", { database: databaseLabel(config.databasePath), role });
} else {
  if (config.demo) startDemoEmulators();
  const handle = await prepare();
  const where = {
    url: `http://localhost:${config.port}`,
    database: databaseLabel(config.databasePath),
    demo: config.demo,
    processes: concurrency,
    role,
  };
  if (concurrency === 1) {
    serve(handle, runsJobs ? startJobs(handle) : null);
    logger.info("MyTess is listening", where);
  } else {
    // The primary supervises the server processes and, in the default role, runs the job worker itself.
    const worker = runsJobs ? startJobs(handle) : null;
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
