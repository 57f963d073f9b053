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
