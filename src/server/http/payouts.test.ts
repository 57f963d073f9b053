import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { signStripePayload } from "../integrations/payments/stripe";
import { checkLedger } from "../modules/payments/ledger";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

let t: TTestApp;
const emu = startPaymentEmulators({}, { fetchImpl: (req: Request) => t.app.handle(req) });
afterAll(() => emu.stop());

type TClient = ReturnType<typeof createClient>;
let driver: TClient;
let otherDriver: TClient;
let shipper: TClient;
let anon: TClient;

beforeEach(async () => {
  emu.controls.stripe.reset();
  emu.controls.chapa.reset();
  emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
  emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
  t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
  driver = createClient(t);
  otherDriver = createClient(t);
  shipper = createClient(t);
  anon = createClient(t);
  await registerUser(driver, "driver");
  await registerUser(otherDriver, "driver");
  await registerUser(shipper, "shipper");
});
afterEach(async () => {
  expect((await checkLedger(t.db)).problems).toEqual([]);
  await closeTestApps();
});

const accountRequests = () => emu.controls.stripe.requests.filter((r) => r.path === "/v1/accounts");

describe("Stripe Connect payouts", () => {
  test("onboarding: one account with controller settings, a fresh link each time, payouts on after account.updated", async () => {
    const empty = await driver.get("/api/payouts/account");
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({
      stripe: { state: "sandbox", account: null },
      chapa: { state: "sandbox", method: null },
    });
    const first = await driver.post("/api/payouts/account", { country: "us" });
    expect(first.status).toBe(200);
    expect(first.json.url).toStartWith(`${emu.urls.stripe}/connect/onboarding/`);
    const [created] = accountRequests();
    const params = Object.fromEntries(created!.params);
    // The current way: controller properties, never the legacy `type`.
    expect(params).toMatchObject({
      "controller[stripe_dashboard][type]": "express",
      "controller[requirement_collection]": "stripe",
      "controller[fees][payer]": "application",
      "controller[losses][payments]": "application",
      "capabilities[transfers][requested]": "true",
      country: "US",
    });
    expect(params.type).toBeUndefined();
    expect(created!.headers["idempotency-key"]).toStartWith("payout-account:");
    const link = emu.controls.stripe.requests.find((r) => r.path === "/v1/account_links")!;
    expect(Object.fromEntries(link.params)).toMatchObject({
      account: first.json.accountId,
      type: "account_onboarding",
      return_url: "http://localhost/settings?payouts=return",
      refresh_url: "http://localhost/settings?payouts=refresh",
    });
    const pending = (await driver.get("/api/payouts/account")).json.stripe.account;
    expect(pending).toMatchObject({ id: first.json.accountId, payoutsEnabled: false, detailsSubmitted: false });
    expect(pending.requirementsDue).toContain("external_account");

    // Again: the same account, a new single-use link.
    const second = await driver.post("/api/payouts/account", {});
    expect(second.json.accountId).toBe(first.json.accountId);
    expect(second.json.url).not.toBe(first.json.url);
    expect(accountRequests()).toHaveLength(1);

    // The hosted page: the first link was used up by nobody yet; open the second and submit.
    const page = await fetch(second.json.url);
    expect(await page.text()).toContain("Submit details");
    // Opened once: a second visit goes to the refresh URL, as Stripe's links do.
    const reused = await fetch(second.json.url, { redirect: "manual" });
    expect(reused.headers.get("location")).toBe("http://localhost/settings?payouts=refresh");
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 3, retries: 2 };
    const submitted = await fetch(`${second.json.url}/submit`, { method: "POST", redirect: "manual" });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get("location")).toBe("http://localhost/settings?payouts=return");
    await emu.controls.stripe.settled();
    const delivered = emu.controls.stripe.deliveries.filter((d) => d.event.type === "account.updated");
    expect(delivered.length).toBe(2);
    expect(delivered.every((d) => d.status === 200)).toBe(true);
    expect((await driver.get("/api/payouts/account")).json.stripe.account).toMatchObject({
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirementsDue: [],
    });
  });

  test("account.updated late or out of order: the account is read back from Stripe, so the newest state stays", async () => {
    const { accountId } = (await driver.post("/api/payouts/account", {})).json;
    await emu.controls.stripe.completeOnboarding(accountId);
    await emu.controls.stripe.requireMore(accountId);
    await emu.controls.stripe.settled();
    expect((await driver.get("/api/payouts/account")).json.stripe.account.payoutsEnabled).toBe(false);
    await emu.controls.stripe.completeOnboarding(accountId);
    await emu.controls.stripe.settled();
    // The "requirements due" event arrives again, late: Stripe now says payouts are on, and that is what stays.
    const stale = emu.controls.stripe.deliveries.filter((d) => d.event.type === "account.updated")[1]!;
    const res = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(stale.body, emu.controls.stripe.webhookSecret) },
        body: stale.body,
      }),
    );
    expect(res.status).toBe(200);
    expect((await driver.get("/api/payouts/account")).json.stripe.account.payoutsEnabled).toBe(true);
    // Another driver's view is their own: nothing of this account.
    expect((await otherDriver.get("/api/payouts/account")).json.stripe.account).toBeNull();
  });

  test("an account event for an account MyTess did not create is answered and ignored", async () => {
    const body = JSON.stringify({
      id: "evt_other",
      type: "account.updated",
      account: "acct_someone_else",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "acct_someone_else", payouts_enabled: true } },
    });
    const res = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(body, emu.controls.stripe.webhookSecret) },
        body,
      }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).applied).toBe(false);
    // Forged: refused before anything is read.
    const forged = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(body, "whsec_wrong") },
        body,
      }),
    );
    expect(forged.status).toBe(400);
  });
});

describe("Chapa payouts to a bank or a wallet", () => {
  test("the banks come from Chapa's list; a telebirr number is saved with its confirmed holder, shown masked", async () => {
    const banks = await driver.get("/api/payouts/banks");
    expect(banks.status).toBe(200);
    expect(emu.controls.chapa.requests.some((r) => r.path === "/v1/banks")).toBe(true);
    const telebirr = banks.json.find((b: { name: string }) => b.name === "telebirr");
    expect(telebirr).toEqual({ id: 855, name: "telebirr", mobileMoney: true, acctLength: 10 });
    // Wallets first, then banks.
    expect(banks.json[0].mobileMoney).toBe(true);
    expect(banks.json.at(-1).mobileMoney).toBe(false);
    const saved = await driver.put("/api/payouts/method", {
      bankCode: telebirr.id,
      accountNumber: "0911223344",
      accountName: "  Abebe   Kebede ",
      accountNameConfirmed: true,
    });
    expect(saved.status).toBe(200);
    expect(saved.json.chapa.method).toEqual({
      bankCode: 855,
      bankName: "telebirr",
      mobileMoney: true,
      accountNumber: "•••• 3344",
      accountName: "Abebe Kebede",
    });
    // Stored sealed with the server key, the last 4 digits apart; no answer carries the number.
    const [stored] = await t.rows<{ account_number: string; account_last4: string }>(
      "select account_number, account_last4 from payout_methods",
    );
    expect(stored!.account_number).toStartWith("v1.");
    expect(stored!.account_number).not.toContain("0911223344");
    expect(t.services.secrets.open(stored!.account_number)).toBe("0911223344");
    expect(stored!.account_last4).toBe("3344");
    expect(saved.text).not.toContain("0911223344");
    expect((await driver.get("/api/payouts/account")).text).not.toContain("0911223344");
    // Changed to a bank account: one method per provider, replaced.
    const cbe = banks.json.find((b: { mobileMoney: boolean; acctLength: number }) => b.acctLength === 13);
    const bank = await driver.put("/api/payouts/method", {
      bankCode: cbe.id,
      accountNumber: "1000123456789",
      accountName: "Abebe Kebede",
      accountNameConfirmed: true,
    });
    expect(bank.json.chapa.method).toMatchObject({
      bankCode: cbe.id,
      mobileMoney: false,
      accountNumber: "•••• 6789",
    });
    const [n] = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from payout_methods");
    expect(n!.n).toBe(1);
    expect((await otherDriver.get("/api/payouts/account")).json.chapa.method).toBeNull();
  });

  test("bad input is 400 naming the field, and nothing is saved", async () => {
    const ok = { bankCode: 855, accountNumber: "0911223344", accountName: "Abebe Kebede", accountNameConfirmed: true };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, bankCode: 999_999 }, "bankCode"],
      [{ ...ok, bankCode: "telebirr" }, "bankCode"],
      [{ ...ok, accountNumber: "09112" }, "accountNumber"],
      [{ ...ok, accountNumber: "091122334455" }, "accountNumber"],
      [{ ...ok, accountName: "" }, "accountName"],
      [{ ...ok, accountNameConfirmed: false }, "accountNameConfirmed"],
      [{ bankCode: 855, accountNumber: "0911223344", accountName: "Abebe Kebede" }, "accountNameConfirmed"],
    ];
    for (const [body, field] of cases) {
      const res = await driver.put("/api/payouts/method", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.issues[0].path).toBe(field);
    }
    const badCountry = await driver.post("/api/payouts/account", { country: "USA" });
    expect(badCountry.status).toBe(400);
    expect(badCountry.json.issues[0].path).toBe("country");
    expect(accountRequests()).toHaveLength(0);
    const [n] = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from payout_methods");
    expect(n!.n).toBe(0);
  });
});

describe("who may set up payouts", () => {
  test("drivers only (a shipper 403), signed out 401, on every route", async () => {
    const routes: [string, string, unknown?][] = [
      ["get", "/api/payouts/account"],
      ["post", "/api/payouts/account", {}],
      ["get", "/api/payouts/banks"],
      [
        "put",
        "/api/payouts/method",
        { bankCode: 855, accountNumber: "0911223344", accountName: "Abebe Kebede", accountNameConfirmed: true },
      ],
    ];
    for (const [method, path, body] of routes) {
      const call = (c: TClient) =>
        (c as unknown as Record<string, (p: string, b?: unknown) => Promise<{ status: number }>>)[method]!(path, body);
      expect((await call(anon)).status, `${method} ${path}`).toBe(401);
      expect((await call(shipper)).status, `${method} ${path}`).toBe(403);
    }
    expect(emu.controls.stripe.requests).toHaveLength(0);
  });

  test("a server without the providers says so (503) and offers nothing", async () => {
    await closeTestApps();
    t = await createTestApp({});
    const d = createClient(t);
    await registerUser(d, "driver");
    expect((await d.get("/api/payouts/account")).json).toEqual({
      stripe: { state: "not_configured", account: null },
      chapa: { state: "not_configured", method: null },
    });
    expect((await d.post("/api/payouts/account", {})).status).toBe(503);
    expect((await d.get("/api/payouts/banks")).status).toBe(503);
  });
});
