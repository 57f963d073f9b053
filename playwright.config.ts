import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 4173);
// A fresh database for every run, seeded with the demo data by the server itself.
const dbDir = process.env.E2E_DB_DIR ?? mkdtempSync(join(tmpdir(), "mytess-e2e-"));
process.env.E2E_DB_DIR = dbDir;
// Demo mode's Telegram and WhatsApp emulators on known ports: specs play the people on the other end (/_emulator/…).
const telegramPort = port + 1;
const whatsappPort = port + 2;
process.env.E2E_TELEGRAM_URL = `http://127.0.0.1:${telegramPort}`;
process.env.E2E_WHATSAPP_URL = `http://127.0.0.1:${whatsappPort}`;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--enable-unsafe-swiftshader",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // Demo mode, as `bun run demo` starts it: the emulators, the demo data, then the server.
    command: "bun run src/demo/main.ts",
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      DATABASE_PATH: join(dbDir, "e2e.db"),
      LOG_LEVEL: "silent",
      DEMO_TELEGRAM_PORT: String(telegramPort),
      DEMO_WHATSAPP_PORT: String(whatsappPort),
      // The push spec's stand-in PushManager subscribes at this (never reached) host; no real push service is used.
      WEB_PUSH_HOSTS: "push.example.test",
    },
  },
});
