// The demo launcher (`bun run demo`): starts the local emulators of every outside system the environment does not
// configure (load boards, stores, Stripe and Chapa, Telegram and WhatsApp, the parcel carriers, mail and SMS, a webhook receiver), points MyTess at them
// through the environment, prepares the demo data (the demo accounts and loads on an empty database, a Sandbox board of
// each kind for every demo driver, a Sandbox Shopify store for every demo shopper), then starts the server exactly as
// `bun run start` does. The interface labels the emulated systems "Sandbox". The production server
// (src/server/main.ts) imports none of this.
import { dirname, join } from "node:path";
import { migrateDb, openConfiguredDb } from "../../db/client";
import { isDatabaseEmpty, seedDemo } from "../../db/seed/demo";
import { startBoardEmulators } from "../../emulators/boards/server";
import { emulatorEnv, startCarrierEmulators } from "../../emulators/carriers/server";
import { startNbeEmulator } from "../../emulators/fx/nbe";
import { startMailCatcher } from "../../emulators/mail/catcher";
import { startNotifyEmulators } from "../../emulators/notifiers/server";
import { startPaymentEmulators } from "../../emulators/payments/server";
import { startSmsEmulators } from "../../emulators/sms/server";
import { startStoreEmulators } from "../../emulators/stores/server";
import { startWebhookReceiver } from "../../emulators/webhooks/receiver";
import { ConfigError, loadConfig } from "../server/config";
import { logger } from "../server/logger";
import { syncRates } from "../server/modules/fx/rates";
import { createServices } from "../server/services";
import { ensureDemoBoards } from "./boards";
import { demoSecretsFileFor, loadDemoSecrets } from "./secrets";
import { ensureDemoStores } from "./stores";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`MyTess cannot start; fix these settings:\n${err.message}`);
  process.exit(2);
}
const env = process.env;

// The emulators sign webhooks with this installation's secrets, never the published Sandbox ones.
const secrets = loadDemoSecrets(demoSecretsFileFor(config.databasePath));

const boards = startBoardEmulators();
env.BOARD_SANDBOX_URLS = JSON.stringify(boards.urls);
logger.info("demo: load-board emulators started", boards.urls);

// Stripe and Chapa: a new user can buy premium end to end against the Sandboxes, whose webhooks come back here.
if (!config.payments.stripe.secretKey && !config.payments.chapa.secretKey) {
  const pay = startPaymentEmulators(
    {},
    { webhookSecrets: { stripe: secrets.stripeWebhookSecret, chapa: secrets.chapaWebhookSecret } },
  );
  for (const [key, value] of Object.entries(pay.env())) env[key] = value;
  const self = `http://localhost:${config.port}`;
  pay.controls.stripe.setWebhookUrl(`${self}/api/webhooks/stripe`);
  pay.controls.chapa.setWebhookUrl(`${self}/api/webhooks/chapa`);
  logger.info("demo: payment emulators started", pay.urls);
}

// Exchange rates: the National Bank of Ethiopia's Sandbox, unless FX_SOURCE_URL names a source.
if (!env.FX_SOURCE_URL?.trim()) {
  const nbe = startNbeEmulator();
  env.FX_SOURCE_URL = nbe.url;
  logger.info("demo: exchange-rate emulator started", { url: nbe.url });
}

const stores = startStoreEmulators({}, { shopifyClientSecret: secrets.shopifyClientSecret });
// One Sandbox shop serves every demo store (one cost bucket); Shopify Plus's refill rate keeps their syncs quick.
stores.controls.shopify.restoreRate = 1000;
env.STORE_SANDBOX_URLS = JSON.stringify(stores.urls);
logger.info("demo: store emulators started", stores.urls);

const channels = {
  telegram: !config.telegram.token,
  // WhatsApp Web links a real phone: no emulator stands in for it.
  whatsapp: !config.whatsapp.accessToken && config.whatsapp.transport !== "web",
};
if (channels.telegram || channels.whatsapp) {
  // Fixed ports only when asked (the browser tests play Telegram and WhatsApp users through the emulators' controls).
  const notify = startNotifyEmulators(
    { telegram: config.demoPorts.telegram ?? undefined, whatsapp: config.demoPorts.whatsapp ?? undefined },
    { whatsapp: { appSecret: secrets.whatsappAppSecret, verifyToken: secrets.whatsappVerifyToken } },
  );
  for (const [key, value] of Object.entries(notify.env())) {
    const forTelegram = key.startsWith("TELEGRAM_");
    const forWhatsApp = key.startsWith("WHATSAPP_");
    if ((forTelegram && channels.telegram) || (forWhatsApp && channels.whatsapp)) env[key] = value;
  }
  logger.info("demo: notification emulators started", {
    telegram: notify.urls.telegram,
    whatsapp: notify.urls.whatsapp,
  });
}

const missing = (["fedex", "ups", "usps"] as const).filter((c) => !config.carriers[c].clientId);
if (missing.length) {
  const emu = startCarrierEmulators();
  for (const [key, value] of Object.entries(emulatorEnv(emu.urls)))
    if (missing.some((c) => key.startsWith(`${c.toUpperCase()}_`))) env[key] = value;
  logger.info("demo: carrier emulators started", { carriers: missing, urls: emu.urls });
}

// Mail: without an SMTP server of the operator's, a local catcher takes every mail; /dev/mail shows its inbox.
if (!config.mail.smtpUrl) {
  const dir = join(dirname(config.databasePath), "mail-sandbox");
  const catcher = await startMailCatcher({ dir });
  env.SMTP_URL = catcher.url;
  env.MAIL_SANDBOX_DIR = dir;
  logger.info("demo: mail catcher started", { smtp: catcher.url, inbox: "/dev/mail" });
}

// SMS: without a provider of the operator's, the Twilio and AfroMessage Sandboxes take every code; /dev/sms shows them.
if (!config.sms.twilio.accountSid && !config.sms.afromessage.token) {
  const dir = join(dirname(config.databasePath), "sms-sandbox");
  const sms = startSmsEmulators({ dir });
  for (const [key, value] of Object.entries(sms.env())) env[key] = value;
  env.SMS_SANDBOX_DIR = dir;
  logger.info("demo: SMS emulators started", { ...sms.urls, inbox: "/dev/sms" });
}

// Outgoing webhooks: nothing outside is reachable, so the Sandbox receiver on loopback stands for a user's own server.
{
  const dir = join(dirname(config.databasePath), "webhook-sandbox");
  const receiver = startWebhookReceiver({ dir });
  env.WEBHOOK_SANDBOX_URL = receiver.url;
  env.WEBHOOK_SANDBOX_DIR = dir;
  logger.info("demo: Sandbox webhook receiver started", { url: receiver.url, received: "/dev/webhooks" });
}

env.MYTESS_DEMO = "1";

// The demo data, before any server process starts: accounts and loads once, the Sandbox boards and stores each time
// (the emulators listen on new ports at every start).
const demo = loadConfig();
const services = createServices(demo);
const handle = await openConfiguredDb(demo.databasePath);
await migrateDb(handle.db);
if (await isDatabaseEmpty(handle.db)) logger.info("demo data seeded", await seedDemo(handle.db));
const configured = await ensureDemoBoards(
  handle.db,
  services.boards,
  boards.urls,
  Date.now(),
  demo.publicUrl ?? `http://localhost:${demo.port}`,
);
if (configured.created) logger.info("demo: sandbox load boards configured", configured);
const shops = await ensureDemoStores(handle.db, services.stores, stores.urls, secrets.shopifyClientSecret);
if (shops.created) logger.info("demo: sandbox Shopify stores configured", shops);
// The day's rates before the first page, so the demo converts at them from the start (the hourly job keeps them).
await syncRates(handle.db, services.fx).catch((err) =>
  logger.warn("demo: exchange rates not fetched; the first-start rates are used", { error: String(err) }),
);
await handle.close();

// The server itself, as `bun run start` runs it, in this process (the emulators keep answering from here).
await import("../server/main");
