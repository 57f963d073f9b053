import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Demo mode answers Telegram and WhatsApp with the local emulators, so the page shows "Sandbox" and messages are really
// sent (to the emulators) through the same adapters a deployment uses. The spec plays the person on the other end
// through the emulators' controls: reads the WhatsApp code, writes /start to the bot.
const telegramEmulator = process.env.E2E_TELEGRAM_URL as string;
const whatsappEmulator = process.env.E2E_WHATSAPP_URL as string;

/** The text of the last WhatsApp message the emulator took for a number (E.164 digits). */
const lastWhatsAppTo = async (digits: string) => {
  const sent = (await (await fetch(`${whatsappEmulator}/_emulator/sent`)).json()) as { to: string; text: string }[];
  return sent.filter((m) => m.to === digits).at(-1)?.text ?? "";
};

test("messaging: show/hide rules, verifying a WhatsApp number, the Telegram deep link, save and reload", async ({
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

  // The number and its test button show only while WhatsApp is on.
  await expect(page.getByLabel("WhatsApp phone number")).toHaveCount(0);
  await page.getByLabel("Enable WhatsApp notifications").click();
  await whatsapp.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Phone Number Required")).toBeVisible();
  await expect(page.getByTestId("toast").getByText("Please enter your WhatsApp phone number first.")).toBeVisible();
  // A typed number is unverified: it gets no test message, only its code.
  const digits = `2519${String(Date.now()).slice(-8)}`;
  await page.getByLabel("WhatsApp phone number").fill(`+${digits}`);
  await expect(whatsapp.getByTestId("whatsapp-status")).toContainText("Unverified");
  await whatsapp.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Failed to send WhatsApp test message.")).toBeVisible();
  await expect(whatsapp.getByRole("alert")).toContainText("verified WhatsApp number");
  await whatsapp.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByTestId("toast").getByText("Code Sent")).toBeVisible();
  const code = /\b(\d{6})\b/.exec(await lastWhatsAppTo(digits))?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel("Code from WhatsApp").fill(code === "000000" ? "111111" : "000000");
  await whatsapp.getByRole("button", { name: "Confirm number" }).click();
  await expect(whatsapp.getByRole("alert")).toContainText("That code is not right");
  await page.getByLabel("Code from WhatsApp").fill(code);
  await whatsapp.getByRole("button", { name: "Confirm number" }).click();
  await expect(page.getByTestId("toast").getByText("Number Verified")).toBeVisible();
  await expect(whatsapp.getByTestId("whatsapp-status")).toContainText("Verified");
  await whatsapp.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Check your WhatsApp for the test message.")).toBeVisible();

  // Telegram: the chat is linked only through the deep link; the chat id is shown, never typed.
  const connect = page.getByTestId("telegram-connect");
  await expect(connect).toHaveAttribute("href", /^https:\/\/t\.me\/mytess_sandbox_bot\?start=[A-Za-z0-9_-]{43}$/);
  await expect(page.getByLabel("Telegram chat ID")).toHaveCount(0);
  await page.getByLabel("Enable Telegram notifications").click();
  await expect(page.getByLabel("Telegram chat ID")).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Telegram chat ID")).toHaveValue("");
  await telegram.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Chat ID Required")).toBeVisible();

  await page.getByTestId("types-card").getByLabel("Payment received").click();
  await page.getByLabel("Message language").selectOption("am");
  await page.getByTestId("messaging-save").click();
  await expect(page.getByTestId("toast").getByText("Your messaging preferences have been updated.")).toBeVisible();

  // The user opens the link in Telegram and presses Start; the bot links the chat.
  const token = new URL((await connect.getAttribute("href")) ?? "").searchParams.get("start");
  const chatId = 8_000_000 + (Date.now() % 1_000_000);
  const started = await fetch(`${telegramEmulator}/_emulator/chats/${chatId}/messages`, {
    method: "POST",
    body: JSON.stringify({ text: `/start ${token}` }),
  });
  expect(started.ok).toBe(true);
  await expect
    .poll(async () => {
      const sent = (await (await fetch(`${telegramEmulator}/_emulator/chats/${chatId}/sent`)).json()) as unknown[];
      return sent.length;
    })
    .toBeGreaterThan(0);

  await page.reload();
  await expect(page.getByLabel("WhatsApp phone number")).toHaveValue(`+${digits}`);
  await expect(whatsapp.getByTestId("whatsapp-status")).toContainText("Verified");
  await expect(page.getByLabel("Telegram chat ID")).toHaveValue(String(chatId));
  await expect(page.getByTestId("types-card").getByLabel("Payment received")).toHaveAttribute(
    "data-state",
    "unchecked",
  );
  await expect(page.getByLabel("Message language")).toHaveValue("am");
  // The chat blocked the bot since: the test message cannot be delivered.
  await fetch(`${telegramEmulator}/_emulator/chats/${chatId}/mode`, {
    method: "PUT",
    body: JSON.stringify({ kind: "blocked" }),
  });
  await telegram.getByRole("button", { name: "Send Test Message" }).click();
  await expect(page.getByTestId("toast").getByText("Failed to send Telegram test message.")).toBeVisible();
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
