import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Demo mode runs Stripe and Chapa Sandboxes whose signed webhooks come back to this server: premium is bought end to
// end. The trial's end is the one thing set from outside, as the clock would: on the e2e database file.
const endTrial = (email: string) =>
  execFileSync(
    "bun",
    [
      "-e",
      `import { Database } from "bun:sqlite";
       const db = new Database(process.env.DB_FILE);
       db.exec("PRAGMA busy_timeout = 5000");
       db.query("UPDATE users SET trial_ends_at = ? WHERE email = ?").run(Date.now() - 86400000, process.env.EMAIL);`,
    ],
    { env: { ...process.env, DB_FILE: join(process.env.E2E_DB_DIR!, "e2e.db"), EMAIL: email } },
  );

test("trial over: Upgrade, pay in the Stripe Sandbox, premium active, then cancel at the period's end", async ({
  page,
}) => {
  const email = uniqueEmail("tigist");
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Shipper", first: "Tigist", last: "Assefa", email });
  await expect(page.getByRole("heading", { name: "Load Board" })).toBeVisible();
  endTrial(email);
  await page.reload();
  await page.getByTestId("upgrade-now").click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByTestId("subscription-status")).toContainText("Your free premium access has expired.");
  await expect(page.getByTestId("sandbox-stripe").first()).toBeVisible();
  // Birr also buys a year, which does not renew by itself.
  await expect(page.getByTestId("checkout-ETB-year")).toContainText("/ year");
  await expect(page.getByTestId("yearly-saving")).toContainText("12 months for the price of 10");

  await page.getByTestId("checkout-USD").click();
  await expect(page.getByText("MyTess Sandbox · Stripe Checkout")).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByTestId("checkout-result")).toContainText("Premium is active until", { timeout: 20_000 });
  await expect(page.getByTestId("paid-until")).toBeVisible();
  await expect(page.getByTestId("renewal")).toContainText("Renews automatically");
  await expect(page.getByTestId("payment-row").first()).toContainText("Paid");
  await expect(page.getByTestId("upgrade-now")).toHaveCount(0);

  await page.getByTestId("cancel-subscription").click();
  await page.getByTestId("confirm-cancel").click();
  await expect(page.getByTestId("toast").getByText("Subscription cancelled")).toBeVisible();
  await expect(page.getByTestId("renewal")).toContainText("will not renew");
});

test("during the trial: the card is first charged when the trial ends and can be cancelled before; a Chapa checkout left on its page is Cancelled", async ({
  page,
}) => {
  const email = uniqueEmail("hana");
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Hana", last: "Bekele", email });
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.goto("/subscribe");
  await expect(page.getByTestId("subscription-status")).toHaveAttribute("data-status", "trial");
  await expect(page.getByTestId("checkout-options")).toContainText("no free day is lost");

  await page.getByTestId("checkout-USD").click();
  await expect(page.getByTestId("trial")).toContainText("nothing is charged today");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByTestId("checkout-result")).toContainText("Card subscription set up", { timeout: 20_000 });
  await expect(page.getByTestId("billing-starts")).toBeVisible();
  await expect(page.getByTestId("subscription-status")).toHaveAttribute("data-status", "trial");
  await expect(page.getByTestId("checkout-options")).toHaveCount(0);
  await expect(page.getByTestId("payments-empty")).toBeVisible();

  await page.getByTestId("cancel-subscription").click();
  await expect(page.getByTestId("cancel-dialog")).toContainText("Your card will not be charged");
  await page.getByTestId("confirm-cancel").click();
  await expect(page.getByTestId("toast").getByText("Subscription cancelled")).toBeVisible();
  await expect(page.getByTestId("billing-starts")).toHaveCount(0);
  await expect(page.getByTestId("subscription-status")).toHaveAttribute("data-status", "trial");

  // Birr: the customer leaves Chapa's page with Cancel.
  await page.getByTestId("checkout-ETB").click();
  await expect(page.getByText("MyTess Sandbox · Chapa Checkout")).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("checkout-result")).toHaveAttribute("data-state", "cancelled", { timeout: 20_000 });
  await expect(page.getByTestId("checkout-result")).toContainText("Payment cancelled: nothing was charged.");
  await expect(page.getByTestId("payment-row").first()).toHaveAttribute("data-status", "cancelled");
  await expect(page.getByTestId("payment-row").first()).toContainText("Cancelled");
});
