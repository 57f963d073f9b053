import { expect, request, test } from "@playwright/test";
import { nextSmsCode, uniqueEmail } from "./helpers";

// A driver adds a phone number in Settings with the code the SMS Sandbox delivered (demo mode's /dev/sms inbox), then,
// signed out on a phone, resets the password with a code sent by SMS; the session they had elsewhere ends.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test("a driver confirms a phone number and resets the password by SMS", async ({ page, baseURL, browser }) => {
  const email = uniqueEmail("sms.driver");
  const national = `09${String(Date.now()).slice(-8)}`;
  const phone = `+251${national.slice(1)}`;
  const api = await request.newContext({ baseURL });
  const made = await page.request.post("/api/auth/register", {
    data: { email, password: "old-password-123", firstName: "Kebede", lastName: "Alemu", userType: "driver" },
  });
  expect(made.status()).toBe(201);

  await page.goto("/settings");
  const card = page.getByTestId("phone-settings");
  await expect(card.getByText("No phone number yet.")).toBeVisible();
  await card.getByLabel("Phone number").fill("0911");
  await card.getByRole("button", { name: "Send code" }).click();
  await expect(card.getByText("Enter a phone number such as 0911 23 45 67 or +251 911 234 567")).toBeVisible();
  await card.getByLabel("Phone number").fill(national);
  await card.getByRole("button", { name: "Send code" }).click();
  await expect(card.getByText(`We sent a 6-digit code by SMS to ${phone}`)).toBeVisible();
  const first = await nextSmsCode(api, phone, 0);
  await card.getByLabel("Code from the SMS").fill(first === "000000" ? "111111" : "000000");
  await card.getByRole("button", { name: "Confirm number" }).click();
  await expect(card.getByText("This code is wrong, used or expired.")).toBeVisible();
  await card.getByLabel("Code from the SMS").fill(first);
  await card.getByRole("button", { name: "Confirm number" }).click();
  await expect(card.getByText(`Confirmed: ${phone}`)).toBeVisible();

  // Signed out, on another phone: "Forgot password?" → a code by SMS → a new password.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, baseURL });
  const phonePage = await other.newPage();
  await phonePage.goto("/signin");
  await phonePage.getByRole("link", { name: "Forgot password?" }).click();
  await phonePage.getByRole("button", { name: "No email? Get a code by SMS" }).click();
  await phonePage.getByLabel("Phone number").fill(national);
  await phonePage.getByRole("button", { name: "Send code" }).click();
  await expect(phonePage.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(phonePage.getByText(`If an account uses ${phone}, a 6-digit code is on its way by SMS.`)).toBeVisible();
  const code = await nextSmsCode(api, phone, 1);
  await phonePage.getByLabel("Code from the SMS").fill(code);
  await phonePage.getByLabel("New password", { exact: true }).fill("new-password-456");
  await phonePage.getByLabel("Repeat the new password").fill("new-password-456");
  await phonePage.getByRole("button", { name: "Set new password" }).click();
  await expect(phonePage.getByTestId("user-menu")).toBeVisible();

  // The session from before is gone; the new password signs in.
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
  expect((await api.post("/api/auth/login", { data: { email, password: "new-password-456" } })).status()).toBe(200);
  await other.close();
  await api.dispose();
});
