import { expect, request, test } from "@playwright/test";
import { uniqueEmail } from "./helpers";

// A shipper who forgot their password gets a link by mail (demo mode's mail catcher, read on /dev/mail), chooses a
// new password on a phone, and is signed in there; the session they had elsewhere ends.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test("a shipper resets the password by email", async ({ page, baseURL }) => {
  const email = uniqueEmail("reset.shipper");
  const elsewhere = await request.newContext({ baseURL });
  const made = await elsewhere.post("/api/auth/register", {
    data: { email, password: "old-password-123", firstName: "Hana", lastName: "Tesfaye", userType: "shipper" },
  });
  expect(made.status()).toBe(201);

  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByRole("button", { name: "Send link" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send link" }).click();
  await expect(page.getByRole("status")).toContainText(`If an account uses ${email}`);

  await page.goto("/dev/mail");
  await expect(page.getByRole("heading", { name: /Demo inbox/ })).toBeVisible();
  const mail = page.getByRole("listitem").filter({ hasText: `To ${email}` });
  await expect(mail.getByRole("heading", { name: "Reset your MyTess password" })).toBeVisible({ timeout: 20_000 });
  await mail.getByRole("link", { name: /\/reset-password\?token=/ }).click();

  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("new-password-456");
  await page.getByLabel("Repeat the new password").fill("not-the-same-1");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("The two passwords are not the same")).toBeVisible();
  await page.getByLabel("Repeat the new password").fill("new-password-456");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible();

  // The session from before the reset is gone; the new password signs in, the old one does not.
  expect((await elsewhere.get("/api/auth/user")).status()).toBe(401);
  const fresh = await request.newContext({ baseURL });
  expect((await fresh.post("/api/auth/login", { data: { email, password: "old-password-123" } })).status()).toBe(401);
  expect((await fresh.post("/api/auth/login", { data: { email, password: "new-password-456" } })).status()).toBe(200);

  // The link was used: opening it again says so and offers a new one.
  await page.goBack();
  await page.reload();
  await page.getByLabel("New password", { exact: true }).fill("third-password-789");
  await page.getByLabel("Repeat the new password").fill("third-password-789");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("This reset link is invalid, used or expired. Ask for a new one.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  await elsewhere.dispose();
  await fresh.dispose();
});
