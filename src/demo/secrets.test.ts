import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoSecretsFileFor, loadDemoSecrets } from "./secrets";

const dir = mkdtempSync(join(tmpdir(), "mytess-demo-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("made once beside the database, then read back: the Shopify one is the Sandbox app's client secret", () => {
  const file = demoSecretsFileFor(join(dir, "fresh", "mytess.db"))!;
  const made = loadDemoSecrets(file);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(made.shopifyClientSecret.length).toBeGreaterThanOrEqual(32);
  expect(JSON.parse(readFileSync(file, "utf8")).shopifyClientSecret).toBe(made.shopifyClientSecret);
  expect(loadDemoSecrets(file)).toEqual(made);
});

test("a file made when the key was shopifyWebhookSecret is still read, with the same secret, and left as it is", () => {
  const file = join(dir, "old-demo-secrets.json");
  const old = {
    stripeWebhookSecret: `whsec_${"s".repeat(43)}`,
    chapaWebhookSecret: "c".repeat(43),
    shopifyWebhookSecret: "h".repeat(43),
    whatsappAppSecret: "a".repeat(32),
    whatsappVerifyToken: "v".repeat(43),
    createdAt: "2026-01-01T00:00:00.000Z",
  };
  const text = `${JSON.stringify(old, null, 2)}\n`;
  writeFileSync(file, text, { mode: 0o600 });
  expect(loadDemoSecrets(file).shopifyClientSecret).toBe(old.shopifyWebhookSecret);
  expect(readFileSync(file, "utf8")).toBe(text);
});

test("a file holding something else stops the start, naming the file", () => {
  const file = join(dir, "bad-demo-secrets.json");
  writeFileSync(file, JSON.stringify({ stripeWebhookSecret: "short" }));
  expect(() => loadDemoSecrets(file)).toThrow(`${file} does not hold demo mode's secrets; remove it to make new ones`);
});
