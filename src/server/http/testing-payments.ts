// The shared setup of the freight payout HTTP tests (payout-transfers, payout-safety, payout-reversal-resolve): the
// Stripe and Chapa emulators sending their webhooks into a fresh test app in process, a signed-up shipper and driver
// (and a stranger), and after every test the ledger check on the engine the test ran on. Registers its own hooks; a
// file calls it once at its top and reads the app and clients from what it returns.
import { afterAll, afterEach, beforeEach, expect } from "bun:test";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { checkLedger } from "../modules/payments/ledger";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

export type TClient = ReturnType<typeof createClient>;

/** `stranger`: also sign up a second shipper, for the "another account" checks. */
export const payoutFixture = ({ stranger = false } = {}) => {
  const fx = {} as { t: TTestApp; shipper: TClient; driver: TClient; stranger: TClient };
  const emu = startPaymentEmulators({}, { fetchImpl: (req: Request) => fx.t.app.handle(req) });
  afterAll(() => emu.stop());
  beforeEach(async () => {
    emu.controls.stripe.reset();
    emu.controls.chapa.reset();
    emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
    emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
    fx.t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
    fx.shipper = createClient(fx.t);
    fx.driver = createClient(fx.t);
    await registerUser(fx.shipper, "shipper");
    await registerUser(fx.driver, "driver");
    if (stranger) {
      fx.stranger = createClient(fx.t);
      await registerUser(fx.stranger, "shipper");
    }
  });
  // Whatever the test did, `mytess ledger check` on the same engine finds nothing.
  afterEach(async () => {
    expect((await checkLedger(fx.t.db)).problems).toEqual([]);
    await closeTestApps();
  });
  return { fx, emu };
};
