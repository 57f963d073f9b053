import { expect, type Page, test } from "@playwright/test";
import { DEMO, postAddisLoad, signIn, signUp, uniqueEmail } from "./helpers";

/** Posts a load as the page's signed-in shipper; its id. */
const postLoad = (page: Page) => postAddisLoad(page, `Webhook load ${Date.now()}`, { amount: 1000, currency: "USD" });

test("a shipper adds a webhook endpoint on Settings, copies its secret once, sees a bid's delivery, resends and deletes it", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Shipper", first: "Hana", last: "Alemu", email: uniqueEmail("hooks") });
  const panel = page.getByTestId("webhooks");
  await expect(panel.getByTestId("no-webhooks")).toBeVisible();

  // An address is required; a private one is refused by the server, named at the field.
  await panel.getByRole("button", { name: "Add endpoint" }).click();
  await expect(panel.getByRole("alert")).toContainText("Enter the https address");
  await panel.getByLabel("Endpoint address").fill("https://10.0.0.5/hooks");
  await panel.getByRole("button", { name: "Add endpoint" }).click();
  await expect(panel.getByRole("alert")).toContainText("public https address");

  // A public address literal (nothing listens there from this machine: its deliveries fail and are logged).
  await panel.getByLabel("Endpoint address").fill("https://192.0.43.10/mytess");
  await panel.getByRole("checkbox", { name: "load.bid_received" }).check();
  await panel.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await panel.getByTestId("webhook-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await panel.getByRole("button", { name: "Copy secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await panel.getByRole("button", { name: "Done" }).click();
  await expect(panel.getByTestId("webhook-secret")).toHaveCount(0);
  const row = panel.getByTestId("webhook-list").getByRole("listitem").first();
  await expect(row).toContainText("https://192.0.43.10/mytess");
  await expect(row).toContainText("load.bid_received, load.awarded");

  // A driver bids on the shipper's load: a delivery appears in the endpoint's log.
  const loadId = await postLoad(page);
  const driverCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const driver = await driverCtx.newPage();
  await signIn(driver, DEMO.driver);
  expect((await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 900 } })).status()).toBe(201);

  await row.getByRole("button", { name: "Deliveries" }).click();
  const log = row.getByTestId("delivery-list").getByRole("listitem").first();
  await expect(log).toContainText("load.bid_received");
  await expect(log.getByTestId("delivery-status")).toContainText("Pending");
  await log.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByTestId("toast").first()).toContainText("Sending again");

  // Deleting asks first.
  await row.getByTestId("delete-webhook").click();
  await page.getByTestId("confirm-delete-webhook").click();
  await expect(panel.getByTestId("no-webhooks")).toBeVisible();
  await driverCtx.close();
  await ctx.close();
});

test("in the demo a shipper adds an endpoint at a Sandbox receiver, and sees a bid's delivery verified on /dev/webhooks", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Shipper", first: "Abebe", last: "Kebede", email: uniqueEmail("hooksbox") });
  const panel = page.getByTestId("webhooks");

  // The button fills the address with a fresh receiver of the user's own; a second press gives another one.
  const field = panel.getByLabel("Endpoint address");
  await panel.getByRole("button", { name: "Use a Sandbox receiver" }).click();
  await expect(field).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/r\/[A-Za-z0-9_-]{43}$/);
  const first = await field.inputValue();
  await panel.getByRole("button", { name: "Use a Sandbox receiver" }).click();
  await expect(field).not.toHaveValue(first);
  await expect(field).toHaveValue(/\/r\/[A-Za-z0-9_-]{43}$/);
  const receiverUrl = await field.inputValue();
  await expect(panel.getByTestId("sandbox-receiver-chosen")).toBeVisible();

  // The user still adds the endpoint as any other; it is marked Sandbox in the list.
  await panel.getByRole("checkbox", { name: "load.bid_received" }).check();
  await panel.getByRole("button", { name: "Add endpoint" }).click();
  await expect(panel.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  await panel.getByRole("button", { name: "Done" }).click();
  const row = panel.getByTestId("webhook-list").getByRole("listitem").first();
  await expect(row).toContainText(receiverUrl);
  await expect(row.getByTestId("sandbox-badge")).toHaveText("Sandbox");

  // Nothing has arrived yet: the page says how to get something.
  await panel.getByRole("link", { name: "See what the Sandbox receiver got" }).click();
  await expect(page).toHaveURL(/\/dev\/webhooks$/);
  await expect(page.getByTestId("nothing-received")).toContainText("Nothing received yet");

  // A driver bids on the shipper's load: the receiver gets the signed call, and the page shows it verified.
  const loadId = await postLoad(page);
  const driverCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const driver = await driverCtx.newPage();
  await signIn(driver, DEMO.driver);
  expect((await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 900 } })).status()).toBe(201);
  const card = page.getByTestId("received-webhook").first();
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(card).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 45_000 });
  await expect(card).toContainText("load.bid_received");
  await expect(card).toContainText(receiverUrl);
  await expect(card.getByTestId("signature-status")).toHaveText("Signature verified");
  const body = card.getByTestId("received-body");
  await expect(body).toBeHidden();
  await card.getByText("Body (JSON)").click();
  await expect(body).toContainText('"type": "load.bid_received"');
  await expect(body).toContainText(`"loadId": ${loadId}`);

  // The endpoint's own log says the receiver answered 200.
  await page.goto("/settings");
  await row.getByRole("button", { name: "Deliveries" }).click();
  await expect(row.getByTestId("delivery-status").first()).toContainText("Delivered");
  await expect(row.getByTestId("delivery-status").first()).toContainText("HTTP 200");

  // The driver's page lists none of the shipper's receiver's calls.
  await driver.goto("/dev/webhooks");
  await expect(driver.getByTestId("nothing-received")).toBeVisible();
  await driverCtx.close();
  await ctx.close();
});
