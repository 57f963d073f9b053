import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Writes made offline wait in local storage (`queuedRequests`) and go out once the connection returns, once each.

test("a bid made offline is queued, marked pending, and placed once when the connection returns", async ({
  browser,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Kebede", last: "Ayana", email: uniqueEmail("kebede") });
  const row = page.getByTestId("load-row").first();
  await expect(row).toBeVisible();
  const loadId = Number(await row.getAttribute("data-load-id"));

  await ctx.setOffline(true);
  await row.getByTestId("quick-bid").click();
  await page.getByTestId("bid-dialog").getByLabel("Bid amount").fill("777");
  await page.getByTestId("bid-dialog").getByRole("button", { name: "Place Bid" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Offline - request queued for later");
  await expect(page.getByTestId("bid-dialog")).toBeHidden();
  await expect(row.getByTestId("pending-badge")).toHaveText("Bid waiting to send");
  await expect(page.getByTestId("queue-button")).toHaveText("1 change waiting to send");
  // Kept as the product rules say: url, options, timestamp; with the key that makes a replay safe.
  const queued = await page.evaluate(() => JSON.parse(localStorage.getItem("queuedRequests") ?? "[]"));
  expect(queued).toHaveLength(1);
  expect(queued[0]).toMatchObject({ url: "/trpc/bids.place", options: { method: "POST" } });
  expect(queued[0].options.headers["Idempotency-Key"]).toMatch(/^q-/);
  expect(typeof queued[0].timestamp).toBe("number");

  await ctx.setOffline(false);
  await expect(page.getByTestId("toast").last()).toContainText("1 queued change sent");
  await expect(page.getByTestId("queue-status")).toHaveCount(0);
  await expect(row.getByTestId("pending-badge")).toHaveCount(0);

  // Placed exactly once, with the amount typed offline.
  const mine = await page.request.get("/api/bids/driver");
  const bids = (await mine.json()) as { loadId: number; amount: number }[];
  expect(bids.filter((b) => b.loadId === loadId).map((b) => b.amount)).toEqual([777]);
  await ctx.close();
});

test("a server that stops answering while the browser says online: the app says offline, queues the bid, and sends it once it answers", async ({
  browser,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Chaltu", last: "Gemechu", email: uniqueEmail("chaltu") });
  const row = page.getByTestId("load-row").first();
  await expect(row).toBeVisible();
  const loadId = Number(await row.getAttribute("data-load-id"));
  await row.getByTestId("quick-bid").hover(); // the dialog's code arrives while the server still answers

  // A phone with signal but no data: the browser keeps saying online, and nothing comes back.
  const noAnswer = (route: import("@playwright/test").Route) => route.abort("internetdisconnected");
  await page.route("**/trpc/**", noAnswer);
  await page.route("**/api/health", noAnswer);
  await row.getByTestId("quick-bid").click();
  await page.getByTestId("bid-dialog").getByLabel("Bid amount").fill("654");
  await page.getByTestId("bid-dialog").getByRole("button", { name: "Place Bid" }).click();
  // A bid far from the budget is asked about once more ("Are you sure?"); this one is meant.
  await page.getByTestId("bid-confirm-send").click();
  await expect(page.getByTestId("toast").filter({ hasText: "Offline - request queued for later" })).toBeVisible();
  await expect(page.getByTestId("offline-badge")).toBeVisible();
  await expect(row.getByTestId("pending-badge")).toHaveText("Bid waiting to send");
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);

  // The server answers again: the app finds out by itself (a probe backing off to 15 s) and sends the bid, once.
  await page.unroute("**/trpc/**");
  await page.unroute("**/api/health");
  await expect(page.getByTestId("offline-badge")).toBeHidden({ timeout: 20_000 });
  await expect(page.getByTestId("toast").filter({ hasText: "1 queued change sent" })).toBeVisible();
  await expect(row.getByTestId("pending-badge")).toHaveCount(0);
  const bids = (await (await page.request.get("/api/bids/driver")).json()) as { loadId: number; amount: number }[];
  expect(bids.filter((b) => b.loadId === loadId).map((b) => b.amount)).toEqual([654]);
  await ctx.close();
});

test("a queued write the server refuses is shown with its reason, not dropped", async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/driver");
  await signUp(page, { type: "Driver", first: "Almaz", last: "Girma", email: uniqueEmail("almaz") });
  await expect(page.getByTestId("user-menu")).toBeVisible();

  // A rating for a load this driver never ran: queued offline, refused once sent.
  await ctx.setOffline(true);
  await page.evaluate(() => {
    const entry = {
      url: "/trpc/loads.rate",
      options: {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": "q-test-refused-1" },
        body: JSON.stringify({ loadId: 1, rating: 5, comment: "Great" }),
      },
      timestamp: Date.now(),
      id: "q-test-refused-1",
      kind: "rating",
      input: { loadId: 1, rating: 5 },
    };
    localStorage.setItem("queuedRequests", JSON.stringify([entry]));
  });
  await page.reload().catch(() => {});
  await ctx.setOffline(false);
  await page.goto("/driver");
  await expect(page.getByTestId("toast").filter({ hasText: "A queued change was not accepted" })).toBeVisible();
  await page.getByTestId("queue-button").click();
  await expect(page.getByTestId("refused-item")).toContainText("Rating on load #1");
  await page.getByTestId("refused-item").getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByTestId("queue-status")).toHaveCount(0);
  await ctx.close();
});

test("a signed-in page reloaded offline keeps the user in the app with the last data they saw", async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/driver");
  await signUp(page, { type: "Driver", first: "Tigist", last: "Bekele", email: uniqueEmail("tigist") });
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await expect(page.getByTestId("stat-active-bids-value")).toHaveText("0");
  // The service worker holds the app shell once it controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
  });
  await page.waitForTimeout(1500); // the last answers are saved at most once a second

  await ctx.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(/\/driver$/);
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await expect(page.getByTestId("stat-active-bids-value")).toHaveText("0");
  // Chromium may call a document loaded without a connection online (navigator.onLine): the app goes by its
  // requests getting no answer, and says it is offline all the same.
  await expect(page.getByTestId("offline-badge")).toBeVisible();
  // When the connection returns, the app notices by itself (a probe, backing off to 15 s) and says so.
  await ctx.setOffline(false);
  await expect(page.getByTestId("offline-badge")).toBeHidden({ timeout: 20_000 });
  await ctx.close();
});

test("a load opened before the connection went stays readable offline with its time, and a bid on it is queued", async ({
  browser,
}) => {
  test.setTimeout(90_000); // sign-up, the board, a reload without a connection and the queue's return
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Hawi", last: "Tolera", email: uniqueEmail("hawi") });
  const row = page
    .getByTestId("load-line")
    .filter({ has: page.getByTestId("quick-bid") })
    .first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  const loadId = Number(await row.getAttribute("data-load-id"));
  const title = (await row.getAttribute("data-title")) ?? "";
  await page.goto(`/loads/${loadId}`);
  await expect(page.getByTestId("load-card")).toContainText(title);
  await page.getByTestId("quick-bid").hover(); // the bid dialog's code arrives while online
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
  });
  await page.waitForTimeout(1500); // the last answers are saved at most once a second

  await ctx.setOffline(true);
  await page.reload();
  // The load as it was, with a quiet line saying when it was last loaded, not "no longer available".
  await expect(page.getByTestId("load-stale")).toHaveText(/^Offline · as of \d{1,2}:\d{2}/);
  await expect(page.getByTestId("load-card")).toContainText(title);
  await expect(page.getByTestId("load-missing")).toHaveCount(0);

  await page.getByTestId("quick-bid").click();
  await page.getByTestId("bid-dialog").getByLabel("Bid amount").fill("888");
  await page.getByTestId("bid-dialog").getByRole("button", { name: "Place Bid" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Offline - request queued for later" })).toBeVisible();
  await expect(page.getByTestId("pending-badge")).toHaveText("Bid waiting to send");

  await ctx.setOffline(false);
  await expect(page.getByTestId("toast").filter({ hasText: "1 queued change sent" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("load-stale")).toHaveCount(0);
  const bids = (await (await page.request.get("/api/bids/driver")).json()) as { loadId: number; amount: number }[];
  expect(bids.filter((b) => b.loadId === loadId).map((b) => b.amount)).toEqual([888]);
  await ctx.close();
});
