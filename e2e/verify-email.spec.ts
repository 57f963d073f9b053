import { expect, type Page, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// A shipper signs up with an email on a phone: the account works at once, but the 4th load waits until the email is
// confirmed with the link mailed at sign-up (demo mode's mail catcher, read on /dev/mail).
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const DAY = 24 * 60 * 60 * 1000;
const loadBody = (title: string) => ({
  title,
  equipmentType: "dry_van",
  pickupAddress: "Kality Customs Terminal",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 8.9,
  pickupLongitude: 38.77,
  deliveryAddress: "Adama Industrial Park",
  deliveryCity: "Adama",
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 8.54,
  deliveryLongitude: 39.27,
  pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
  deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
  weight: 30000,
  budgetAmount: 1000,
  budgetCurrency: "USD",
});

const localInput = (d: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const pickPlace = async (page: Page, fieldId: string, typed: string, suggestion: RegExp) => {
  await page.locator(`#${fieldId}`).fill(typed);
  await page.getByRole("option", { name: suggestion }).first().click();
};

test("a shipper confirms the email from the sign-up mail; the 4th load is refused before and accepted after", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("verify.shipper");
  await page.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(page, { type: "Shipper", first: "Meron", last: "Tadesse", email });
  await expect(page.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();

  // Three loads go through at once (the page's own session), without a confirmed email.
  for (let i = 1; i <= 3; i++)
    expect((await page.request.post("/api/loads", { data: loadBody(`Sorghum ${i}`) })).status()).toBe(201);

  // The 4th, from the post-load form: refused with what to do and the way to Settings; the form stays open.
  await page.reload();
  await page.getByTestId("post-load").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Title").fill("Sorghum 4");
  await dialog.getByLabel("Equipment").selectOption("dry_van");
  await pickPlace(page, "pickup-city", "Addis Ab", /Addis Ababa.*Ethiopia/);
  await page.locator("#pickup-address").fill("Kality Customs Terminal");
  await pickPlace(page, "delivery-city", "Adama", /Adama.*Ethiopia/);
  await page.locator("#delivery-address").fill("Adama Industrial Park");
  const pickupAt = new Date(Date.now() + 26 * 60 * 60 * 1000);
  await dialog.getByLabel("Pickup date and time").fill(localInput(pickupAt));
  await dialog.getByLabel("Delivery date and time").fill(localInput(new Date(pickupAt.getTime() + 8 * 60 * 60 * 1000)));
  await dialog.getByLabel(/^Weight/).fill("30000");
  await dialog.getByLabel("Budget", { exact: true }).fill("1000");
  await dialog.getByRole("button", { name: "Post Load" }).click();
  const needed = dialog.getByTestId("contact-needed");
  await expect(needed).toContainText("Confirm your email or phone to post more than 3 loads");
  await needed.getByRole("link", { name: "Confirm it in Settings" }).click();

  // Settings shows the address as not confirmed yet.
  const card = page.getByTestId("contact-settings");
  await expect(card.getByRole("heading", { name: "Sign-in and contact" })).toBeVisible();
  await expect(card.getByTestId("email-status")).toContainText(email);
  await expect(card.getByTestId("email-status")).toContainText("Not confirmed");
  await expect(card.getByRole("button", { name: "Send the link again" })).toBeVisible();

  // The mail sent at sign-up, read from the mail catcher.
  await page.goto("/dev/mail");
  const mail = page.getByRole("listitem").filter({ hasText: `To ${email}` });
  await expect(mail.getByRole("heading", { name: "Confirm your email for MyTess" })).toBeVisible({ timeout: 20_000 });
  const link = mail.getByRole("link", { name: /\/verify-email\?token=/ });
  const href = await link.getAttribute("href");
  expect(href).toBeTruthy();
  await link.click();
  await expect(page.getByTestId("email-confirmed")).toContainText("Email confirmed");

  await page.getByRole("link", { name: "Go to Settings" }).click();
  await expect(page.getByTestId("email-status")).toContainText("Confirmed");
  await expect(page.getByTestId("email-status")).not.toContainText("Not confirmed");
  await expect(page.getByRole("button", { name: "Send the link again" })).toHaveCount(0);

  // Now the 4th load is taken.
  expect((await page.request.post("/api/loads", { data: loadBody("Sorghum 4") })).status()).toBe(201);

  // The link works once: opened again it says so, and this signed-in account is told it is already confirmed.
  await page.goto(href!);
  const error = page.getByTestId("email-link-error");
  await expect(error).toContainText("This confirmation link is invalid, used or expired.");
  await expect(error).toContainText(`Your email ${email} is already confirmed.`);
});
