import { expect, test } from "@playwright/test";
import { setUpStripePayouts, signUp, uniqueEmail } from "./helpers";

// Demo mode runs the Stripe and Chapa Sandboxes: the driver sets up both payouts end to end from Settings, on a phone.
test.use({ viewport: { width: 390, height: 844 } });

test("a driver adds a telebirr payout (name confirmed) and finishes Stripe Connect onboarding in the Sandbox", async ({
  page,
}) => {
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Driver", first: "Abebe", last: "Kebede", email: uniqueEmail("abebe") });
  const card = page.getByTestId("payout-setup");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("sandbox-badge").first()).toBeVisible();

  // Chapa: the wallet from Chapa's list, a wrong length refused on the phone, then the name shown back to confirm.
  const chapa = card.getByTestId("payout-chapa");
  await chapa.getByLabel("Bank or wallet").selectOption({ label: "telebirr (mobile money)" });
  await chapa.getByLabel("Account or wallet phone number").fill("09112");
  await chapa.getByLabel("Account holder's name").fill("Abebe Kebede");
  await chapa.getByRole("button", { name: "Continue" }).click();
  await expect(chapa.getByText("Enter the 10-digit number")).toBeVisible();
  await chapa.getByLabel("Account or wallet phone number").fill("0911223344");
  await chapa.getByRole("button", { name: "Continue" }).click();
  await expect(chapa.getByTestId("payout-chapa-confirm")).toContainText("Abebe Kebede");
  const save = chapa.getByRole("button", { name: "Yes, save" });
  expect((await save.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await save.click();
  await expect(chapa.getByTestId("payout-chapa-method")).toContainText("telebirr · •••• 3344 · Abebe Kebede");

  // Stripe: the hosted onboarding, back to Settings with payouts enabled (account.updated came back to the server).
  await setUpStripePayouts(page);
});
