import { expect, type Page, test } from "@playwright/test";
import { DEMO, signUp, uniqueEmail } from "./helpers";

// Layout on a phone as people in the field hold it: nothing may push the page wider than the screen.
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const telegramEmulator = process.env.E2E_TELEGRAM_URL as string;
const DAY = 24 * 3600_000;
// Two accounts, a Telegram link, a bid and a message: more steps than the default budget on a busy machine.
test.describe.configure({ timeout: 120_000 });

const load = () => ({
  title: `Teff, 12 t ${Date.now()}`,
  equipmentType: "dry_van",
  pickupAddress: "Merkato",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 9.03,
  pickupLongitude: 38.74,
  deliveryAddress: "Kebele 04",
  deliveryCity: "Hawassa",
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 7.06,
  deliveryLongitude: 38.48,
  pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
  deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
  weight: 26000,
  budgetAmount: 800,
  budgetCurrency: "USD",
});

const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

test("messaging on a phone: a long notification text and a long word wrap, the page never scrolls sideways", async ({
  browser,
}) => {
  const shipperCtx = await browser.newContext(phone);
  const driverCtx = await browser.newContext();
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/messaging");
  await signUp(shipper, { type: "Shipper", first: "Meseret", last: "Alemu", email: uniqueEmail("meseret") });
  await expect(shipper.getByTestId("telegram-card")).toBeVisible();

  // The shipper links a Telegram chat (the emulator plays the person pressing Start), so messages reach a channel
  // and show in the page's history.
  const connect = shipper.getByTestId("telegram-connect");
  const token = new URL((await connect.getAttribute("href")) ?? "").searchParams.get("start");
  const chatId = 7_000_000 + (Date.now() % 1_000_000);
  const started = await fetch(`${telegramEmulator}/_emulator/chats/${chatId}/messages`, {
    method: "POST",
    body: JSON.stringify({ text: `/start ${token}` }),
  });
  expect(started.ok).toBe(true);
  await expect
    .poll(async () => (await (await shipper.request.get("/api/messaging/preferences")).json()).telegramChatId)
    .toBe(String(chatId));
  const prefs = await (await shipper.request.get("/api/messaging/preferences")).json();
  const saved = await shipper.request.put("/api/messaging/preferences", {
    data: {
      whatsappEnabled: false,
      telegramEnabled: true,
      telegramChatId: String(chatId),
      notificationTypes: prefs.notificationTypes,
      language: prefs.language,
    },
  });
  expect(saved.status()).toBe(200);

  const posted = await shipper.request.post("/api/loads", { data: load() });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Gemechis", last: "Tolera", email: uniqueEmail("gemechis") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();
  expect(
    (await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 750, currency: "USD" } })).status(),
  ).toBe(201);
  const longWord = "Gate7-Merkato-warehouse-Kolfe-Keranio-loading-bay-north-side-behind-the-fuel-station";
  const text = `I can load tomorrow at 8 if the gate is open; the address is ${longWord}, please call when the truck may come in.`;
  expect((await driver.request.post(`/api/loads/${loadId}/messages`, { data: { body: text } })).status()).toBe(201);

  // The message goes out through a job: the history shows it once sent.
  const recent = shipper.getByTestId("recent-notifications");
  await expect(async () => {
    await shipper.reload();
    await expect(recent.getByTestId("notification-body").filter({ hasText: longWord })).toBeVisible({
      timeout: 3_000,
    });
  }).toPass();
  // The whole text is there to read, wrapped inside the screen, not cut at the edge.
  const body = recent.getByTestId("notification-body").filter({ hasText: longWord });
  await expect(body).toContainText("please call when the truck may come in.");
  const fits = (el: Element) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 390;
  expect(await body.evaluate(fits)).toBe(true);
  const width = await pageWidth(shipper);
  expect(width.scroll).toBeLessThanOrEqual(width.inner);

  // The bell's list on the same phone: the long word wraps inside its item.
  await shipper.getByTestId("notification-bell").click();
  const item = shipper.getByTestId("notification-item").filter({ hasText: longWord }).first();
  await expect(item).toBeVisible();
  expect(await item.evaluate(fits)).toBe(true);
  const widthOpen = await pageWidth(shipper);
  expect(widthOpen.scroll).toBeLessThanOrEqual(widthOpen.inner);

  await shipperCtx.close();
  await driverCtx.close();
});

/**
 * Every badge and pill on the page: none wraps onto a second line, none runs past the screen, no two overlap.
 * Returns what is wrong, so a failure names the badges.
 */
const badgeProblems = (page: Page) =>
  page.evaluate(() => {
    const pills = [...document.querySelectorAll<HTMLElement>('[data-slot="badge"], [data-testid="distance-badge"]')]
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0);
    const problems: string[] = [];
    for (const { el, r } of pills) {
      const text = el.textContent ?? "";
      const line = Number.parseFloat(getComputedStyle(el).lineHeight) || 16;
      if (r.height > line * 1.6 + 8) problems.push(`wraps: ${text}`);
      if (r.right > window.innerWidth + 0.5 || r.left < -0.5) problems.push(`off screen: ${text}`);
      if (el.scrollWidth > el.clientWidth + 1 && !el.title) problems.push(`cut without a title: ${text}`);
    }
    for (let i = 0; i < pills.length; i++)
      for (let j = i + 1; j < pills.length; j++) {
        const a = pills[i].r;
        const b = pills[j].r;
        if (pills[i].el.contains(pills[j].el) || pills[j].el.contains(pills[i].el)) continue;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) problems.push(`overlap: ${pills[i].el.textContent} / ${pills[j].el.textContent}`);
      }
    return { count: pills.length, problems };
  });

test("Afaan Oromo on a phone: badges and pills on the board, load cards and bids stay on one line, apart", async ({
  browser,
}) => {
  for (const who of [DEMO.driver, DEMO.shipper]) {
    const ctx = await browser.newContext(phone);
    const page = await ctx.newPage();
    expect((await page.request.post("/api/auth/login", { data: who, timeout: 60_000 })).ok()).toBe(true);
    expect((await page.request.put("/api/user/language", { data: { language: "om" } })).ok()).toBe(true);
    try {
      const pages = who === DEMO.driver ? ["/loads", "/driver", "/subscribe"] : ["/shipper", "/loads", "/subscribe"];
      for (const path of pages) {
        await page.goto(path);
        await expect(page.locator('[data-slot="badge"]').first()).toBeVisible({ timeout: 30_000 });
        // The demo driver has bids waiting and the demo shipper loads in several states: those pills are checked too.
        if (path === "/driver") await expect(page.getByTestId("bid-status").first()).toBeVisible();
        if (path === "/shipper") await expect(page.getByTestId("load-status").first()).toBeVisible();
        const found = await badgeProblems(page);
        expect(found.count, path).toBeGreaterThan(0);
        expect(found.problems, path).toEqual([]);
      }
    } finally {
      await page.request.put("/api/user/language", { data: { language: "en" } });
      await ctx.close();
    }
  }
});
