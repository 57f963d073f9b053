// Demo mode's webhook secrets. The emulators' defaults are published in this repository, so a demo server reachable
// on a network would take forged Stripe, Chapa, Shopify and WhatsApp webhooks signed with them. Each installation makes
// its own instead, once, in a file beside the database (mode 600), and hands them to the emulators, which sign with them.
// A Shopify app's webhooks are signed with its client secret, so Shopify's is the Sandbox app's client secret.
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";

const ZDemoSecrets = z.preprocess(
  // Files made before the Sandbox Shopify store was a Dev Dashboard app name its secret shopifyWebhookSecret.
  (v) =>
    v && typeof v === "object" && !("shopifyClientSecret" in v) && "shopifyWebhookSecret" in v
      ? { ...v, shopifyClientSecret: v.shopifyWebhookSecret }
      : v,
  z.object({
    stripeWebhookSecret: z.string().min(32),
    chapaWebhookSecret: z.string().min(32),
    // The Sandbox Shopify app's client secret: its token grant checks it and its webhooks are signed with it.
    shopifyClientSecret: z.string().min(32),
    whatsappAppSecret: z.string().min(32),
    whatsappVerifyToken: z.string().min(32),
  }),
);
export type TDemoSecrets = z.infer<typeof ZDemoSecrets>;

export const demoSecretsFileFor = (databasePath: string) =>
  databasePath === ":memory:" || databasePath === "" ? null : join(dirname(databasePath), "demo-secrets.json");

const fresh = (): TDemoSecrets => {
  const token = () => randomBytes(32).toString("base64url");
  return {
    // Stripe's own form (whsec_…), so the Sandbox looks like the real dashboard's secret.
    stripeWebhookSecret: `whsec_${token()}`,
    chapaWebhookSecret: token(),
    shopifyClientSecret: token(),
    // A Meta app secret is 32 hex digits.
    whatsappAppSecret: randomBytes(16).toString("hex"),
    whatsappVerifyToken: token(),
  };
};

/**
 * The installation's demo secrets: read from `file`, or made and written there once. Processes starting together
 * each link a finished temporary file into place; the losers read the winner's, so all of them sign and check alike.
 * `file` null (an in-memory database) gives secrets for this process only.
 */
export const loadDemoSecrets = (file: string | null): TDemoSecrets => {
  if (!file) return fresh();
  const read = () => {
    const parsed = ZDemoSecrets.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) throw new Error(`${file} does not hold demo mode's secrets; remove it to make new ones`);
    return parsed.data;
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ ...fresh(), createdAt: new Date().toISOString() }, null, 2)}\n`, {
    mode: 0o600,
  });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return read();
};
