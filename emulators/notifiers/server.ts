// Starts the Telegram, WhatsApp Cloud API and Web Push emulators on loopback ports (0 = any free port). Used by tests
// and demo mode; `bun emulators/notifiers/server.ts` runs them on fixed ports.
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pushControlRoutes, telegramControlRoutes, whatsappControlRoutes, withControl } from "./control";
import { createTelegramEmulator } from "./telegram";
import { createTestCertificate } from "./test-certificate";
import { createPushServiceEmulator } from "./web-push";
import { createWhatsAppEmulator, type TWhatsAppTemplateDef } from "./whatsapp";

export const NOTIFY_EMULATOR_CREDENTIALS = {
  telegram: { token: "7000000001:AAEmulatorSandboxTokenForMyTessBot00" },
  whatsapp: {
    accessToken: "EAAG-sandbox-access-token",
    phoneNumberId: "106540352242922",
    displayPhoneNumber: "15550783881",
    businessAccountId: "102290129340398",
    appSecret: "whatsapp-sandbox-app-secret",
    verifyToken: "whatsapp-sandbox-verify-token",
  },
} as const;

/** Approved templates the emulator knows; a real account has its own, approved by Meta. */
export const EMULATOR_TEMPLATES: TWhatsAppTemplateDef[] = [
  { name: "mytess_notification", language: "en", body: "MyTess: {{1}}\n{{2}}" },
  { name: "mytess_notification", language: "am", body: "MyTess: {{1}}\n{{2}}" },
  { name: "mytess_notification", language: "om", body: "MyTess: {{1}}\n{{2}}" },
  {
    name: "hello_world",
    language: "en_US",
    body: "Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API, hosted by Meta.",
  },
];

/** The environment that points MyTess's notifiers at running emulators. */
export const notifyEmulatorEnv = (e: {
  urls: { telegram: string; whatsapp: string; push: string };
  caFile: string;
  whatsapp?: { appSecret: string; verifyToken: string };
}) => ({
  TELEGRAM_BOT_TOKEN: NOTIFY_EMULATOR_CREDENTIALS.telegram.token,
  TELEGRAM_API_ROOT: e.urls.telegram,
  WHATSAPP_API_ROOT: e.urls.whatsapp,
  WHATSAPP_ACCESS_TOKEN: NOTIFY_EMULATOR_CREDENTIALS.whatsapp.accessToken,
  WHATSAPP_PHONE_NUMBER_ID: NOTIFY_EMULATOR_CREDENTIALS.whatsapp.phoneNumberId,
  WHATSAPP_APP_SECRET: e.whatsapp?.appSecret ?? NOTIFY_EMULATOR_CREDENTIALS.whatsapp.appSecret,
  WHATSAPP_VERIFY_TOKEN: e.whatsapp?.verifyToken ?? NOTIFY_EMULATOR_CREDENTIALS.whatsapp.verifyToken,
  WEB_PUSH_CA_FILE: e.caFile,
  // The push service on loopback: subscriptions it mints are accepted and sent to (the operator's Sandbox).
  WEB_PUSH_SANDBOX_URL: e.urls.push,
});

/**
 * `whatsapp`: the app secret the Cloud API emulator signs its webhooks with and the verify token, instead of the
 * published Sandbox ones (demo mode passes the installation's own).
 */
export const startNotifyEmulators = (
  ports: { telegram?: number; whatsapp?: number; push?: number } = {},
  o: { whatsapp?: { appSecret: string; verifyToken: string } } = {},
) => {
  const telegram = createTelegramEmulator(NOTIFY_EMULATOR_CREDENTIALS.telegram);
  const whatsapp = createWhatsAppEmulator({
    ...NOTIFY_EMULATOR_CREDENTIALS.whatsapp,
    ...o.whatsapp,
    templates: EMULATOR_TEMPLATES,
  });
  const push = createPushServiceEmulator();
  // Push endpoints must be HTTPS (browsers only make such, and our adapter refuses others): a certificate made now,
  // whose private key never leaves this process. Only the certificate is written out, for WEB_PUSH_CA_FILE.
  const tls = createTestCertificate();
  const caFile = join(tmpdir(), `mytess-push-ca-${process.pid}-${Date.now()}.pem`);
  writeFileSync(caFile, tls.cert);
  // Long polls may last 50 s, beyond Bun's default idle timeout of 10 s.
  const servers = {
    telegram: Bun.serve({
      port: ports.telegram ?? 0,
      hostname: "127.0.0.1",
      idleTimeout: 0,
      fetch: withControl(telegramControlRoutes(telegram.control), telegram.handle),
    }),
    whatsapp: Bun.serve({
      port: ports.whatsapp ?? 0,
      hostname: "127.0.0.1",
      fetch: withControl(whatsappControlRoutes(whatsapp.control), whatsapp.handle),
    }),
    push: Bun.serve({
      port: ports.push ?? 0,
      hostname: "127.0.0.1",
      tls,
      fetch: withControl(pushControlRoutes(push.control), push.handle),
    }),
  };
  const urls = {
    telegram: `http://127.0.0.1:${servers.telegram.port}`,
    whatsapp: `http://127.0.0.1:${servers.whatsapp.port}`,
    push: `https://127.0.0.1:${servers.push.port}`,
  };
  push.control.setOrigin(urls.push);
  return {
    urls,
    /** PEM of the push service's certificate, and the file that holds it. */
    ca: tls.cert,
    caFile,
    telegram: telegram.control,
    whatsapp: whatsapp.control,
    push: push.control,
    env: () => notifyEmulatorEnv({ urls, caFile, whatsapp: o.whatsapp }),
    stop: () => {
      telegram.control.close();
      for (const s of Object.values(servers)) s.stop(true);
      rmSync(caFile, { force: true });
    },
  };
};

if (import.meta.main) {
  const e = startNotifyEmulators({ telegram: 4201, whatsapp: 4202, push: 4203 });
  console.log("Notification emulators:", e.urls);
  console.log("Environment for MyTess:");
  for (const [k, v] of Object.entries(e.env())) console.log(`  ${k}=${v}`);
  console.log("Play the users over HTTP (see emulators/notifiers/control.ts), e.g.:");
  console.log(`  curl -X POST ${e.urls.telegram}/_emulator/chats/1001/messages -d '{"text":"/start"}'`);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => {
      e.stop();
      process.exit(0);
    });
}
