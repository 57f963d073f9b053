import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { seedDemo } from "../../db/seed/demo";
import { ecommerceIntegrations } from "../../db/tables";
import { startStoreEmulators } from "../../emulators/stores/server";
import { SHOPIFY_DEMO_CLIENT_ID, signedWebhook } from "../../emulators/stores/shopify";
import { receiveWebhook } from "../server/modules/stores/orders";
import { runStoreSync } from "../server/modules/stores/sync";
import { closeTestApps, createTestApp, testBoardServices } from "../server/testing";
import { ensureDemoStores } from "./stores";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

// The installation's own secret, as demo mode hands it to the emulators (demo-secrets.ts).
const OWN = "installation-own-secret-0123456789abcdef";

let emu: ReturnType<typeof startStoreEmulators>;
beforeAll(() => {
  emu = startStoreEmulators({}, { shopifyClientSecret: OWN });
  // As demo mode runs it: one shop for every demo store, at Shopify Plus's refill rate.
  emu.controls.shopify.restoreRate = 1000;
});
afterAll(() => emu.stop());
afterEach(closeTestApps);

const demoApp = async () => {
  const t = await createTestApp({}, undefined, undefined, testBoardServices({ sandbox: Object.values(emu.urls) }));
  await seedDemo(t.db);
  return t;
};

/** Whether an order webhook signed with `secret` is taken for integration `id`. */
const takes = async (t: Awaited<ReturnType<typeof demoApp>>, id: number, secret: string) => {
  const hook = signedWebhook("orders/create", emu.controls.shopify.add({ status: "ready" }), secret);
  try {
    await receiveWebhook(t.db, t.services.stores, id, hook.body, new Headers(hook.headers));
    return true;
  } catch {
    return false;
  }
};

test("demo shippers get a Sandbox Shopify store on the demo app with the installation's secret, which syncs; a restart repoints it", async () => {
  const t = await demoApp();
  const stores = t.services.stores;
  const first = await ensureDemoStores(t.db, stores, { shopify: emu.urls.shopify }, OWN);
  expect(first.created).toBeGreaterThan(0);
  const rows = await t.rows<{ id: number; credentials: string; credential_fields: string }>(
    "select CAST(id AS INTEGER) id, credentials, credential_fields from ecommerce_integrations",
  );
  expect(rows.length).toBe(first.created);
  for (const r of rows) {
    expect(JSON.parse(stores.secrets.open(r.credentials))).toEqual({
      shopDomain: "sandbox",
      clientId: SHOPIFY_DEMO_CLIENT_ID,
      clientSecret: OWN,
    });
    const result = await runStoreSync(t.db, stores, r.id);
    expect(result.created).toBeGreaterThan(0);
    // Its webhooks are checked with the installation's secret: the published one forges nothing.
    expect(await takes(t, r.id, "sandbox")).toBe(false);
    expect(await takes(t, r.id, OWN)).toBe(true);
  }
  // Tokens came by the client-credentials grant.
  expect(emu.controls.shopify.tokenCalls).toBeGreaterThan(0);
  // The next start finds them and points them at the emulator's new address.
  const again = await ensureDemoStores(t.db, stores, { shopify: "http://127.0.0.1:4999" }, OWN);
  expect(again.created).toBe(0);
  const settings = await t.rows<{ settings: string }>("select settings from ecommerce_integrations");
  for (const s of settings) expect(JSON.parse(s.settings).apiBaseUrl).toBe("http://127.0.0.1:4999");
});

test("a demo store made with a published secret (the Sandbox app's, or a legacy app's webhook secret) is given the installation's at start", async () => {
  const t = await demoApp();
  const stores = t.services.stores;
  await ensureDemoStores(t.db, stores, { shopify: emu.urls.shopify }, OWN);
  const [a, b, c] = await t.db.select().from(ecommerceIntegrations).orderBy(ecommerceIntegrations.id);
  // As earlier versions made them: the published Dev Dashboard app, the legacy app, and one no key here opens.
  const before = {
    [a!.id]: { shopDomain: "sandbox", clientId: "sandbox", clientSecret: "sandbox" },
    [b!.id]: { shopDomain: "sandbox", accessToken: "sandbox", webhookSecret: "sandbox" },
  };
  for (const [id, creds] of Object.entries(before))
    await t.db
      .update(ecommerceIntegrations)
      .set({ credentials: stores.secrets.seal(JSON.stringify(creds)), credentialFields: Object.keys(creds) })
      .where(eq(ecommerceIntegrations.id, Number(id)));
  await t.db
    .update(ecommerceIntegrations)
    .set({ credentials: "sealed-under-another-key" })
    .where(eq(ecommerceIntegrations.id, c!.id));
  for (const i of [a!, b!]) expect(await takes(t, i.id, "sandbox")).toBe(true);

  expect((await ensureDemoStores(t.db, stores, { shopify: emu.urls.shopify }, OWN)).created).toBe(0);
  const after = await t.db.select().from(ecommerceIntegrations).orderBy(ecommerceIntegrations.id);
  const opened = after.map((i) => JSON.parse(stores.secrets.open(i.credentials)));
  expect(opened).toEqual([
    { shopDomain: "sandbox", clientId: SHOPIFY_DEMO_CLIENT_ID, clientSecret: OWN },
    { shopDomain: "sandbox", accessToken: "sandbox", webhookSecret: OWN },
    { shopDomain: "sandbox", clientId: SHOPIFY_DEMO_CLIENT_ID, clientSecret: OWN },
  ]);
  expect(after.map((i) => i.credentialFields)).toEqual(opened.map((o) => Object.keys(o)));
  for (const i of after) {
    expect(await takes(t, i.id, "sandbox")).toBe(false);
    expect(await takes(t, i.id, OWN)).toBe(true);
    // And it still reads the Sandbox's orders (the first runs of these stores).
    expect((await runStoreSync(t.db, stores, i.id)).created).toBeGreaterThan(0);
  }
  // Nothing left to replace: a further start writes no credentials.
  await ensureDemoStores(t.db, stores, { shopify: emu.urls.shopify }, OWN);
  const third = await t.db.select().from(ecommerceIntegrations).orderBy(ecommerceIntegrations.id);
  expect(third.map((i) => [i.credentials, i.updatedAt])).toEqual(after.map((i) => [i.credentials, i.updatedAt]));
});
