import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";

let n = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++n}@example.com`;

export const DEMO = {
  driver: { email: "abebe@demo.mytess.app", password: "mytess-demo" },
  shipper: { email: "selam@demo.mytess.app", password: "mytess-demo" },
};

export const signIn = async (page: Page, who: { email: string; password: string }, returnTo = "/") => {
  await page.goto(`/signin?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible();
};

export const signUp = async (
  page: Page,
  p: { type: "Driver" | "Shipper"; first: string; last: string; email: string; password?: string },
) => {
  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByRole("radio", { name: p.type }).check();
  await page.getByLabel("First name").fill(p.first);
  await page.getByLabel("Last name").fill(p.last);
  await page.getByLabel("Email").fill(p.email);
  await page.getByLabel("Password").fill(p.password ?? "strong-password-1");
  await page.getByRole("button", { name: "Create account" }).last().click();
};

/**
 * Confirms a new account's email with the link mailed at sign-up (demo mode's mail catcher): for stories whose steps
 * wait for a proven contact (funding a load, posting a fourth).
 */
export const confirmEmail = async (page: Page, email: string) => {
  let token = "";
  await expect
    .poll(
      async () => {
        const inbox = (await (await page.request.get("/api/dev/mail")).json()) as {
          mails: { to: string[]; text: string }[];
        };
        const mail = inbox.mails.find(
          (m) => m.to.some((t) => t.includes(email)) && /verify-email\?token=/.test(m.text),
        );
        token = mail?.text.match(/verify-email\?token=([\w-]+)/)?.[1] ?? "";
        return token;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");
  expect((await page.request.post("/api/auth/email/verify", { data: { token } })).status()).toBe(200);
};

const DAY = 24 * 60 * 60 * 1000;

/** A load's places: where it is picked up and delivered, as the load form sends them. */
export type TRoute = {
  pickupAddress: string;
  pickupCity: string;
  pickupCountry: string;
  pickupLatitude: number;
  pickupLongitude: number;
  deliveryAddress: string;
  deliveryCity: string;
  deliveryCountry: string;
  deliveryLatitude: number;
  deliveryLongitude: number;
};

/** Posts a load as the signed-in shipper (picked up in three days, delivered the day after); its id. */
export const postLoad = async (
  page: Page,
  load: TRoute & { title: string; equipmentType: string; weight: number; budgetAmount: number; budgetCurrency: string },
) => {
  const posted = await page.request.post("/api/loads", {
    data: {
      ...load,
      pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
    },
  });
  expect(posted.status()).toBe(201);
  return (await posted.json()).id as number;
};

/** Kality Customs Terminal in Addis Ababa to Adama Industrial Park: the stories' usual Ethiopian route. */
export const ADDIS_ADAMA: TRoute = {
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
};

/** A 30 t flatbed load from Addis Ababa to Adama for `budget` (Br 9,800 unless said), as the signed-in shipper; its id. */
export const postAddisLoad = (page: Page, title: string, budget = { amount: 9800, currency: "ETB" }) =>
  postLoad(page, {
    ...ADDIS_ADAMA,
    title,
    equipmentType: "flatbed",
    weight: 30000,
    budgetAmount: budget.amount,
    budgetCurrency: budget.currency,
  });

/** The driver bids on the load and the shipper accepts: the load is awarded at that price. */
export const awardBid = async (
  driver: Page,
  shipper: Page,
  loadId: number,
  bid: { amount: number; currency: string },
) => {
  const posted = await driver.request.post(`/api/loads/${loadId}/bids`, { data: bid });
  expect(posted.status()).toBe(201);
  const bidId = (await posted.json()).bid.id as number;
  expect((await shipper.request.post(`/api/bids/${bidId}/accept`)).status()).toBe(200);
};

/**
 * The shipper funds the awarded load from its page: the provider's Sandbox page (named by its heading) takes the
 * payment and sends the shipper back to the load, which waits for the provider's webhook: "Payment secured".
 */
export const fundOnSandbox = async (shipper: Page, loadId: number, sandboxPage: string) => {
  await shipper.goto(`/loads/${loadId}`);
  await shipper.getByTestId("fund-button").click();
  await expect(shipper.getByText(sandboxPage)).toBeVisible();
  await shipper.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(shipper).toHaveURL(new RegExp(`/loads/${loadId}`));
  // Back before the provider's webhook, the page says it is confirming the payment, and never offers to pay again.
  await expect(shipper.getByTestId("payment-confirming").or(shipper.getByTestId("payment-secured"))).toBeVisible({
    timeout: 20_000,
  });
  await expect(shipper.getByTestId("fund-button")).toHaveCount(0);
  await expect(shipper.getByTestId("payment-secured")).toBeVisible({ timeout: 30_000 });
};

/** The load page shows the payment paid out once the worker's transfer is confirmed (the page is reloaded until). */
export const expectPaidOut = async (page: Page, loadId: number) => {
  await expect(async () => {
    await page.goto(`/loads/${loadId}`);
    await expect(page.getByTestId("payment-state")).toHaveText("Paid out", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
};

/** A phone camera's photo: larger than the 2,000 px the app sends. */
export const cameraPhoto = async (name: string, red: number) => ({
  name,
  mimeType: "image/jpeg",
  buffer: await sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: red, g: 120, b: 60 } } })
    .jpeg()
    .toBuffer(),
});

/**
 * The driver, on Settings, finishes Stripe Connect onboarding: the Sandbox's hosted page, back to Settings, where
 * payouts show as enabled once Stripe's account.updated webhook reached the server.
 */
export const setUpStripePayouts = async (page: Page) => {
  await page.getByTestId("payout-setup").getByRole("button", { name: "Set up Stripe payouts" }).click();
  await expect(page.getByText("MyTess Sandbox · Stripe Connect onboarding")).toBeVisible();
  await page.getByRole("button", { name: "Submit details" }).click();
  await expect(page).toHaveURL(/\/settings\?payouts=return$/);
  await expect(page.getByTestId("payout-stripe-enabled")).toBeVisible({ timeout: 20_000 });
};

/**
 * A row of the payments panel links the payment's receipt (named by the load's title), opened in a new tab: what it
 * points at is the PDF, for the signed-in reader.
 */
export const expectReceipt = async (page: Page, row: Locator, loadTitle: string) => {
  const link = row.getByRole("link", { name: `Receipt for ${loadTitle} (PDF)` });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("target", "_blank");
  expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/api\/payments\/\d+\/receipt\.pdf$/);
  const pdf = await page.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
};

type TSms = { to: string; body: string; provider: string };
/**
 * The newest 6-digit code the SMS Sandbox delivered to `phone` once more than `seen` messages reached it, read from
 * demo mode's inbox (`/api/dev/sms`); the Ethiopian number goes through AfroMessage.
 */
export const nextSmsCode = async (api: APIRequestContext, phone: string, seen: number) => {
  let code = "";
  await expect
    .poll(
      async () => {
        const inbox = (await (await api.get("/api/dev/sms")).json()) as { messages: TSms[] };
        const mine = inbox.messages.filter((m) => m.to === phone);
        if (mine.length <= seen) return null;
        code = /\b(\d{6})\b/.exec(mine[0]!.body)?.[1] ?? "";
        return mine[0]!.provider;
      },
      { timeout: 20_000 },
    )
    .toBe("afromessage");
  return code;
};
