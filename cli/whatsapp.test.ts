import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBridge, listen } from "../workers/whatsapp-web/bridge.mjs";
import { createFakeClient } from "../workers/whatsapp-web/fake-client";
import { loginWithChild } from "./commands/whatsapp";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

// `mytess whatsapp login` and `status` against a bridge with a fake WhatsApp Web client (the real one needs
// web.whatsapp.com): the test plays the phone while the CLI runs.
const dir = mkdtempSync(join(tmpdir(), "mytess-cli-wa-"));
const SECRET = "cli-test-secret-0123456789abc";
const fake = createFakeClient();
const bridge = createBridge({ client: fake.client, secret: SECRET, log: () => {} });
const server = await listen(bridge, { host: "127.0.0.1", port: 0 });
const bridgeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});
const env = {
  ...process.env,
  DATABASE_PATH: join(dir, "mytess.db"),
  MYTESS_LANG: "en",
  WHATSAPP_TRANSPORT: "web",
  WHATSAPP_WEB_BRIDGE_URL: bridgeUrl,
  WHATSAPP_WEB_SECRET: SECRET,
};
const cli = join(import.meta.dir, "index.ts");
// Not spawnSync: the bridge answering the CLI lives in this process, whose event loop must keep running.
const run = async (args: string[], extra: Record<string, string> = {}) => {
  const p = Bun.spawn(["bun", cli, ...args], { env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
};

describe("mytess whatsapp", () => {
  test("login shows the running bridge's QR code in the terminal, then the linked number once the phone scans it", async () => {
    fake.showQr("2@Q1xMyTessTestCode,abc==,def==");
    const p = Bun.spawn(["bun", cli, "whatsapp", "login", "--raw", "--timeout", "30"], { env, stdout: "pipe" });
    const reader = p.stdout.getReader();
    let out = "";
    while (!out.includes("2@Q1xMyTessTestCode,abc==,def==")) {
      const { done, value } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(out).toContain("Scan this QR code with WhatsApp");
    // qrcode-terminal's small blocks.
    expect(out).toMatch(/[▄▀█]{10}/);
    fake.link("251911556677");
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(await p.exited).toBe(0);
    expect(out).toContain("WhatsApp Web is linked to +251911556677.");
  });

  test("status names the transport and the bridge's state, in the operator's language; --json for scripts", async () => {
    const plain = await run(["whatsapp", "status"]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain("Transport: web");
    expect(plain.out).toContain(`WhatsApp Web bridge at ${bridgeUrl}: linked to +251911556677`);
    const json = JSON.parse((await run(["whatsapp", "status", "--json"])).out);
    expect(json).toEqual({
      transport: "web",
      bridgeUrl,
      bridge: { state: "ready", number: "+251911556677", detail: null },
    });
    expect((await run(["whatsapp", "status"], { MYTESS_LANG: "am" })).out).toContain("ከ+251911556677 ጋር ተገናኝቷል");
    const none = await run(["whatsapp", "status"], { WHATSAPP_WEB_BRIDGE_URL: "http://127.0.0.1:9" });
    expect(none.out).toContain("No WhatsApp Web bridge answers at http://127.0.0.1:9");
  });

  test("a bridge with another secret, or a bad --timeout, exits non-zero with a message", async () => {
    const wrong = await run(["whatsapp", "status"], { WHATSAPP_WEB_SECRET: "some-other-secret-0123456" });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("refused our signature: WHATSAPP_WEB_SECRET differs");
    const bad = await run(["whatsapp", "login", "--timeout", "soon"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("--timeout must be a number of seconds");
  });
});

describe("login with a bridge of its own (no worker running one)", () => {
  // Stand-ins for `node main.mjs login`, which prints one JSON event per line.
  const script = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, body);
    return ["node", file];
  };
  const linkedScript = script(
    "links.mjs",
    `const say = (e) => console.log(JSON.stringify(e));
     say({ level: "info", msg: "starting" });
     say({ event: "qr", qr: "2@first" });
     say({ event: "qr", qr: "2@second" });
     say({ event: "ready", number: "+251922000111" });
     say({ event: "linked", number: "+251922000111" });`,
  );

  test("shows each QR code, says when the phone is linked, resolves with the number once the session is saved", async () => {
    const qrs: string[] = [];
    const ready: (string | null)[] = [];
    const number = await loginWithChild(linkedScript, process.env, {
      onQr: (qr) => qrs.push(qr),
      onReady: (n) => ready.push(n),
      timeoutMs: 30_000,
    });
    expect(number).toBe("+251922000111");
    expect(qrs).toEqual(["2@first", "2@second"]);
    expect(ready).toEqual(["+251922000111"]);
  });

  test("a refused login, a bridge that dies, and no phone in time are errors with the reason", async () => {
    const opts = { onQr: () => {}, onReady: () => {}, timeoutMs: 30_000 };
    const refused = script(
      "refused.mjs",
      `console.log(JSON.stringify({ event: "failed", message: "authentication failed: bad session" })); process.exit(1);`,
    );
    await expect(loginWithChild(refused, process.env, opts)).rejects.toThrow(
      "WhatsApp Web login failed: authentication failed: bad session",
    );
    const dies = script("dies.mjs", `console.error("Error: Failed to launch the browser process!"); process.exit(1);`);
    await expect(loginWithChild(dies, process.env, opts)).rejects.toThrow("Failed to launch the browser process!");
    const waits = script(
      "waits.mjs",
      `console.log(JSON.stringify({ event: "qr", qr: "2@x" })); setInterval(() => {}, 1000);`,
    );
    await expect(loginWithChild(waits, process.env, { ...opts, timeoutMs: 500 })).rejects.toThrow(
      "No phone was linked within 1 seconds",
    );
  });
});
