import { expect, test } from "@playwright/test";
import {
  awardBid,
  confirmEmail,
  expectPaidOut,
  expectReceipt,
  fundOnSandbox,
  postLoad,
  signUp,
  uniqueEmail,
} from "./helpers";

const ADDIS_TO_ADAMA = {
  pickupAddress: "Merkato",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 9.03,
  pickupLongitude: 38.74,
  deliveryAddress: "Adama Industrial Park",
  deliveryCity: "Adama",
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 8.54,
  deliveryLongitude: 39.27,
};

// Demo mode runs the Chapa Sandbox and the job worker: a shipper in Addis funds a load in birr on Chapa's page, the
// driver (with a telebirr payout) delivers, the shipper accepts, and the driver sees "Paid out" on a phone.
test("a birr load funded on the Chapa Sandbox is paid out to the driver's telebirr once the delivery is accepted", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const title = `Teff ${Date.now()}`;

  const shipperCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  const shipperEmail = uniqueEmail("selam");
  await signUp(shipper, { type: "Shipper", first: "Selam", last: "Tesfaye", email: shipperEmail });
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible({ timeout: 20_000 });
  // Funding waits for a proven email or phone.
  await confirmEmail(shipper, shipperEmail);
  const loadId = await postLoad(shipper, {
    title,
    equipmentType: "flatbed",
    ...ADDIS_TO_ADAMA,
    weight: 20000,
    budgetAmount: 25000,
    budgetCurrency: "ETB",
  });

  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Abebe", last: "Kebede", email: uniqueEmail("abebe") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible({ timeout: 20_000 });
  // The payout method (its own story is payouts.spec.ts) and the bid, through the API.
  const method = await driver.request.put("/api/payouts/method", {
    data: { bankCode: 855, accountNumber: "0911223344", accountName: "Abebe Kebede", accountNameConfirmed: true },
  });
  expect(method.status()).toBe(200);
  await awardBid(driver, shipper, loadId, { amount: 25000, currency: "ETB" });

  // The shipper pays on Chapa's page and comes back to the load: secured.
  await fundOnSandbox(shipper, loadId, "MyTess Sandbox · Chapa Checkout");

  // The trip: picked up, delivered, accepted.
  expect((await driver.request.post(`/api/loads/${loadId}/pickup`)).status()).toBe(200);
  expect((await driver.request.post(`/api/loads/${loadId}/deliver`)).status()).toBe(200);
  expect((await shipper.request.post(`/api/loads/${loadId}/pod/accept`)).status()).toBe(200);

  // The worker transfers the driver's share; Chapa's webhook confirms it. The driver sees it on the load page…
  await expectPaidOut(driver, loadId);
  await expect(driver.getByTestId("payment-secured-text")).toHaveText("Br 25,000.00 was sent to your payout account.");
  // …and in the payments panel, with the history.
  await driver.goto("/settings");
  const row = driver.getByTestId("freight-payment").filter({ hasText: title });
  await expect(row.getByTestId("payment-state")).toHaveText("Paid out");
  await expect(row).toContainText("Released to the driver");
  await expectReceipt(driver, row, title);
  // The shipper sees it paid to the driver.
  await shipper.goto(`/loads/${loadId}`);
  await expect(shipper.getByTestId("payment-state")).toHaveText("Paid out", { timeout: 20_000 });
  await expect(shipper.getByTestId("payment-secured-text")).toHaveText("Br 25,000.00 was paid to the driver.");
  await shipperCtx.close();
  await driverCtx.close();
});
