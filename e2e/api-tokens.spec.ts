import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

test("a shipper creates an API token on Settings, copies it once, calls the API with it, and revokes it", async ({
  browser,
  playwright,
  baseURL,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Shipper", first: "Hana", last: "Alemu", email: uniqueEmail("tokens") });
  const panel = page.getByTestId("api-tokens");
  await expect(panel.getByTestId("no-tokens")).toBeVisible();

  // A name is required, named at its field.
  await panel.getByRole("button", { name: "Create token" }).click();
  await expect(panel.getByRole("alert")).toContainText("Give the token a name");

  await panel.getByLabel("Token name").fill("Our TMS");
  await panel.getByRole("checkbox", { name: "loads:write" }).check();
  await panel.getByRole("button", { name: "Create token" }).click();
  const token = (await panel.getByTestId("token-value").textContent()) ?? "";
  expect(token).toMatch(/^mt_[a-z0-9]{12}_/);
  await panel.getByRole("button", { name: "Copy token" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  // The token works from outside the browser (no cookie), within its scopes.
  const outside = await playwright.request.newContext({ baseURL });
  const api = await outside.get("/api/loads/shipper", { headers: { Authorization: `Bearer ${token}` } });
  expect(api.status()).toBe(200);

  // Shown once: after Done only its prefix stays, with when it was used.
  await panel.getByRole("button", { name: "Done" }).click();
  await expect(panel.getByTestId("token-value")).toHaveCount(0);
  await page.reload();
  const row = page.getByTestId("token-list").getByRole("listitem").filter({ hasText: "Our TMS" });
  await expect(row).toContainText(token.slice(0, 15));
  await expect(row).not.toContainText(token.slice(16));
  await expect(row).toContainText("Last used");

  // Revoking asks first; afterwards the token is refused.
  await row.getByTestId("revoke-token").click();
  await page.getByTestId("confirm-revoke-token").click();
  await expect(page.getByTestId("no-tokens")).toBeVisible();
  const refused = await outside.get("/api/loads/shipper", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  await outside.dispose();
  await ctx.close();
});
