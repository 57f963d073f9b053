import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

test("a visitor bids on the landing page, creates a driver account, and finds the bid in My Bids", async ({
  browser,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("bids.place")) sent.push(r.url());
  });
  await page.goto("/landing");
  const form = page.getByTestId("landing-bid");
  await expect(form).toBeVisible();
  const title = (await form.getByTestId("landing-bid-title").textContent())?.trim() ?? "";
  expect(title.length).toBeGreaterThan(0);

  // The form checks the amount like the real bid dialog.
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(form.getByRole("alert")).toHaveText("Enter an amount greater than 0");
  await form.getByLabel("Bid amount").fill("640");
  await form.getByLabel("Notes (optional)").fill("Loading crew of two");
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(page.getByTestId("landing-bid-kept")).toContainText("has not been sent");
  // Kept on the device, never sent before sign-in.
  expect(sent).toEqual([]);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("mytess.pendingBid") ?? "null"));
  expect(kept).toMatchObject({ amount: 640, notes: "Loading crew of two", loadTitle: title });

  await page.getByRole("link", { name: "Create a driver account" }).click();
  await expect(page.getByRole("radio", { name: "Driver" })).toBeChecked();
  await signUp(page, { type: "Driver", first: "Bekele", last: "Tola", email: uniqueEmail("bekele") });
  await expect(page).toHaveURL(/\/driver$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Bid Placed" })).toBeVisible();
  await expect(page.getByTestId("my-bid").filter({ hasText: title })).toContainText("Pending");
  expect(await page.evaluate(() => localStorage.getItem("mytess.pendingBid"))).toBeNull();
  await ctx.close();
});

test("the landing page shows bids as a shipper receives them, with drivers as initials", async ({ page }) => {
  await page.goto("/landing");
  const demo = page.getByTestId("received-bids");
  await expect(demo.getByTestId("demo-bid").first()).toBeVisible();
  // The demo data has open loads with bids: real ones, not the example.
  await expect(demo.getByTestId("bids-example")).toHaveCount(0);
  await expect(demo.getByTestId("demo-bid").first()).toContainText(/^[A-Z]{2}/);
  await expect(demo.getByTestId("demo-bid-amount").first()).toContainText("$");
});

test("Get started opens account creation, Log in opens sign-in; the phone menu offers both", async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/landing");
  await page.getByTestId("get-started").click();
  await expect(page.getByRole("tab", { name: "Create account" })).toHaveAttribute("aria-selected", "true");
  await page.goto("/landing");
  await page.getByRole("link", { name: "Log in" }).first().click();
  await expect(page.getByRole("tab", { name: "Sign in" })).toHaveAttribute("aria-selected", "true");
  await page.goto("/landing");
  await page.getByRole("link", { name: "Start earning today" }).click();
  await expect(page.getByRole("radio", { name: "Driver" })).toBeChecked();
  await ctx.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const p = await phone.newPage();
  await p.goto("/landing");
  await p.getByRole("button", { name: "Open menu" }).click();
  const menu = p.getByRole("navigation", { name: "Mobile" });
  await expect(menu.getByRole("link", { name: "Log in" })).toBeVisible();
  await menu.getByRole("link", { name: "Get started" }).click();
  await expect(p.getByRole("tab", { name: "Create account" })).toHaveAttribute("aria-selected", "true");
  await phone.close();
});

test("a landing bid on a load that went meanwhile says so and shows similar loads", async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/landing");
  // A bid kept from an earlier visit, on a load that is no longer open.
  await page.evaluate(() =>
    localStorage.setItem(
      "mytess.pendingBid",
      JSON.stringify({
        loadId: 987654,
        loadTitle: "Cement from Modjo",
        amount: 500,
        currency: "USD",
        proposedPickupDate: null,
        notes: null,
        pickup: { latitude: 8.59, longitude: 39.12 },
        equipmentType: "flatbed",
        savedAt: Date.now(),
      }),
    ),
  );
  await page.goto("/signin?mode=register&userType=driver&returnTo=/driver");
  await signUp(page, { type: "Driver", first: "Lemlem", last: "Haile", email: uniqueEmail("lemlem") });
  const taken = page.getByTestId("load-taken");
  await expect(taken).toContainText("This load was taken meanwhile");
  await expect(taken).toContainText("Cement from Modjo");
  await expect(taken.getByRole("link").first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("mytess.pendingBid"))).toBeNull();
  await ctx.close();
});

test("the landing page arrives rendered in the visitor's language, before any script runs; the app then takes over", async ({
  browser,
}) => {
  // No JavaScript at all: what a phone shows while the app's code is still on its way.
  const bare = await browser.newContext({ javaScriptEnabled: false, locale: "am-ET" });
  const page = await bare.newPage();
  const res = await page.goto("/landing");
  expect(res?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "am");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("አሽከርካሪዎችና ላኪዎች");
  await expect(page.getByRole("link", { name: "ለአሽከርካሪዎች" }).first()).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
  await bare.close();

  // With scripts, the app replaces it with the same page, working (the live figures arrive).
  const ctx = await browser.newContext({ locale: "om-ET" });
  const live = await ctx.newPage();
  await live.goto("/landing");
  await expect(live.getByRole("heading", { level: 1 })).toContainText("konkolaachistoonni");
  await expect(live.getByTestId("platform-stats")).not.toContainText("…");
  await ctx.close();
});

test("the Try it load is one near the visitor, in their currency: Ethiopian for an Addis device or an Amharic reader", async ({
  browser,
}) => {
  type TSample = { title: string; pickupCountry: string; pickupLocation: string }[];
  const sampleFor = async (
    ctx: { request: { get: (url: string) => Promise<{ json: () => Promise<unknown> }> } },
    region: string,
  ) =>
    (
      (await (
        await ctx.request.get(
          `/trpc/platform.sampleLoads?input=${encodeURIComponent(JSON.stringify({ limit: 6, region }))}`,
        )
      ).json()) as { result: { data: TSample } }
    ).result.data;

  // A browser in Addis Ababa that says en-US (as many there do): an Ethiopian load, its budget in birr.
  const addis = await browser.newContext({ timezoneId: "Africa/Addis_Ababa", locale: "en-US" });
  const [ethiopian] = await sampleFor(addis, "ET");
  expect(ethiopian.pickupCountry).toBe("Ethiopia");
  const page = await addis.newPage();
  await page.goto("/landing");
  const card = page.getByTestId("landing-bid");
  await expect(card.getByTestId("landing-bid-title")).toHaveText(ethiopian.title);
  await expect(card.getByTestId("landing-bid-route")).toContainText(ethiopian.pickupLocation);
  await expect(card.getByTestId("landing-bid-budget")).toContainText("Br");
  await addis.close();

  // A reader who chose Amharic, on a device elsewhere: Ethiopian too, in ብር.
  const amharic = await browser.newContext({ timezoneId: "Europe/Amsterdam", locale: "nl-NL" });
  const reader = await amharic.newPage();
  await reader.goto("/landing");
  await reader.getByTestId("language-select").first().selectOption({ label: "አማርኛ" });
  await expect(reader.getByTestId("landing-bid").getByTestId("landing-bid-title")).toHaveText(ethiopian.title);
  await amharic.close();

  // A device in Chicago: a US load, in dollars.
  const chicago = await browser.newContext({ timezoneId: "America/Chicago", locale: "en-US" });
  const [american] = await sampleFor(chicago, "US");
  expect(american.pickupCountry).not.toBe("Ethiopia");
  const us = await chicago.newPage();
  await us.goto("/landing");
  await expect(us.getByTestId("landing-bid").getByTestId("landing-bid-title")).toHaveText(american.title);
  await expect(us.getByTestId("landing-bid").getByTestId("landing-bid-budget")).toContainText("$");
  await chicago.close();
});
