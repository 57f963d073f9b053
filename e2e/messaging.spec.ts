import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Demo mode answers Telegram and WhatsApp with the local emulators, so the page shows "Sandbox" and test messages are
// really sent (to the emulators) through the same adapters a deployment uses.
test("messaging: show/hide rules, test messages, field errors, save and reload, the Telegram deep link", async ({
  page,
}) => {
  await page.goto("/signin?mode=register&returnTo=/messaging");
  await signUp(page, { type: "Driver", first: "Chala", last: "Gemechu", email: uniqueEmail("chala") });
  await expect(page.getByRole("heading", { name: "Messaging", exact: true })).toBeVisible();
  await expect(page.getByText("Configure your messaging and notification preferences")).toBeVisible();
  const whatsapp = page.getByTestId("whatsapp-card");
  const telegram = page.getByTestId("telegram-card");
  await expect(whatsapp.getByText("Sandbox")).toBeVisible();
  await expect(telegram.getByText("Sandbox")).toBeVisible();
  await expect(page.getByTestId("ethiopian-card")).toContainText("Amharic, Afaan Oromo and English");
  await expect(page.getByTestId("push-panel")).toBeVisible();

  // SPEC §4: the number and its test button only while WhatsApp is on.
  await expect(page.getByLabel("WhatsApp phone number")).toHaveCount(0);
  await page.getByLabel("Enable WhatsApp notifications").click();
  await whatsapp.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Phone Number Required")).toBeVisible();
  await expect(page.getByTestId("toast").getByText("Please enter your WhatsApp phone number first.")).toBeVisible();
  await page.getByLabel("WhatsApp phone number").fill("0917 65 43 21");
  await whatsapp.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Check your WhatsApp for the test message.")).toBeVisible();

  // Telegram: the deep link, then a chat id typed by hand.
  const connect = page.getByTestId("telegram-connect");
  await expect(connect).toHaveAttribute("href", /^https:\/\/t\.me\/mytess_sandbox_bot\?start=[A-Za-z0-9_-]{43}$/);
  await expect(page.getByLabel("Telegram chat ID")).toHaveCount(0);
  await page.getByLabel("Enable Telegram notifications").click();
  await telegram.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Chat ID Required")).toBeVisible();
  await page.getByLabel("Telegram chat ID").fill("@chala");
  await page.getByTestId("messaging-save").click();
  await expect(
    page.getByTestId("toast").getByText("Failed to save messaging preferences. Please try again."),
  ).toBeVisible();
  await expect(telegram.getByRole("alert")).toContainText("telegramChatId must be a number");
  // A chat that never started the bot cannot be tested.
  await page.getByLabel("Telegram chat ID").fill("424242");
  await telegram.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Failed to send Telegram test message.")).toBeVisible();

  await page.getByTestId("types-card").getByLabel("Payment received").click();
  await page.getByLabel("Message language").selectOption("am");
  await page.getByTestId("messaging-save").click();
  await expect(page.getByTestId("toast").getByText("Your messaging preferences have been updated.")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("WhatsApp phone number")).toHaveValue("+251917654321");
  await expect(page.getByLabel("Telegram chat ID")).toHaveValue("424242");
  await expect(page.getByTestId("types-card").getByLabel("Payment received")).toHaveAttribute(
    "data-state",
    "unchecked",
  );
  await expect(page.getByLabel("Message language")).toHaveValue("am");
  // The history: the WhatsApp test arrived, the Telegram one did not.
  const recent = page.getByTestId("recent-notifications");
  await expect(recent.getByText("WhatsApp", { exact: true })).toBeVisible();
  await expect(recent.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(recent.getByText("Not delivered", { exact: true })).toBeVisible();
});

test("load alerts: a driver shares a location, chooses radius and equipment, and the choice survives a reload", async ({
  browser,
  baseURL,
}) => {
  const ctx = await browser.newContext({ geolocation: { latitude: 8.98, longitude: 38.79 } });
  await ctx.grantPermissions(["geolocation"], { origin: baseURL });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/messaging");
  await signUp(page, { type: "Driver", first: "Lemlem", last: "Tesfaye", email: uniqueEmail("lemlem") });
  const card = page.getByTestId("load-alerts-card");
  await expect(card.getByText("No location yet")).toBeVisible();
  await card.getByRole("button", { name: "Share my location" }).click();
  await expect(card.getByTestId("alerts-location")).toContainText("Near your last location");
  await card.getByLabel("Alert me about new loads near me").click();
  await card.getByLabel("Within").selectOption("100");
  await card.getByLabel("Flatbed").check();
  await card.getByTestId("alerts-save").click();
  await expect(page.getByTestId("toast").getByText("Load alerts updated.")).toBeVisible();
  await page.reload();
  await expect(card.getByLabel("Alert me about new loads near me")).toHaveAttribute("data-state", "checked");
  await expect(card.getByLabel("Within")).toHaveValue("100");
  await expect(card.getByLabel("Flatbed")).toBeChecked();
  await ctx.close();
});

test("a shipper's Messaging page has no load alerts", async ({ page }) => {
  await page.goto("/signin?mode=register&returnTo=/messaging");
  await signUp(page, { type: "Shipper", first: "Tsion", last: "Girma", email: uniqueEmail("tsion") });
  await expect(page.getByTestId("whatsapp-card")).toBeVisible();
  await expect(page.getByTestId("load-alerts-card")).toHaveCount(0);
});
