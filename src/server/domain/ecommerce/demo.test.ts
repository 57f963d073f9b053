import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { seedDemo } from "../../../../db/seed/demo";
import { startStoreEmulators } from "../../../../emulators/stores/server";
import { closeTestApps, createTestApp, testBoardServices } from "../../testing";
import { ensureDemoStores } from "./demo";
import { runStoreSync } from "./sync";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

let emu: ReturnType<typeof startStoreEmulators>;
beforeAll(() => {
  emu = startStoreEmulators();
  // As demo mode runs it: one shop for every demo store, at Shopify Plus's refill rate.
  emu.controls.shopify.restoreRate = 1000;
});
afterAll(() => emu.stop());
afterEach(closeTestApps);

test("demo shippers get a Sandbox Shopify store on its Dev Dashboard app, which syncs; a restart repoints it", async () => {
  const t = await createTestApp({}, undefined, undefined, testBoardServices({ sandbox: Object.values(emu.urls) }));
  await seedDemo(t.db);
  const stores = t.services.stores;
  const first = await ensureDemoStores(t.db, stores, { shopify: emu.urls.shopify });
  expect(first.created).toBeGreaterThan(0);
  const rows = await t.rows<{ id: number; credentials: string; credential_fields: string }>(
    "select CAST(id AS INTEGER) id, credentials, credential_fields from ecommerce_integrations",
  );
  expect(rows.length).toBe(first.created);
  for (const r of rows) {
    expect(JSON.parse(stores.secrets.open(r.credentials))).toEqual({
      shopDomain: "sandbox",
      clientId: "sandbox",
      clientSecret: "sandbox",
    });
    const result = await runStoreSync(t.db, stores, r.id);
    expect(result.created).toBeGreaterThan(0);
  }
  // Tokens came by the client-credentials grant.
  expect(emu.controls.shopify.tokenCalls).toBeGreaterThan(0);
  // The next start finds them and points them at the emulator's new address.
  const again = await ensureDemoStores(t.db, stores, { shopify: "http://127.0.0.1:4999" });
  expect(again.created).toBe(0);
  const settings = await t.rows<{ settings: string }>("select settings from ecommerce_integrations");
  for (const s of settings) expect(JSON.parse(s.settings).apiBaseUrl).toBe("http://127.0.0.1:4999");
});
