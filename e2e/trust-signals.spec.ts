import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { DEMO, uniqueEmail } from "./helpers";

// A shipper sends their papers, an operator approves them on the review page, and a driver then sees the Verified
// badge on the shipper's load: in the board's table (desktop), in its two-line row (phone), on the load's page, and
// on the shipper company's public profile.

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const DAY = 24 * 60 * 60 * 1000;
// Gode, in the Somali region: far from the demo's loads, so the board around it shows this spec's load.
const GODE = { latitude: 5.95, longitude: 43.55 };
const BOARD = `/loads?latitude=${GODE.latitude}&longitude=${GODE.longitude}&radius=50&sourceType=mytess`;

/** Operators are named by the CLI; here its one statement, on the e2e database file. */
const makeOperator = (email: string) =>
  execFileSync(
    "bun",
    [
      "-e",
      `import { Database } from "bun:sqlite";
       const db = new Database(process.env.DB_FILE);
       db.exec("PRAGMA busy_timeout = 5000");
       db.query("INSERT INTO operators (user_id, granted_at) SELECT id, ? FROM users WHERE email = ?").run(Date.now(), process.env.EMAIL);`,
    ],
    { env: { ...process.env, DB_FILE: join(process.env.E2E_DB_DIR!, "e2e.db"), EMAIL: email } },
  );

const contextAt = async (browser: Browser, viewport: { width: number; height: number }) => {
  const ctx = await browser.newContext({ viewport });
  await ctx.route(/^https?:\/\/(?!(localhost|127\.0\.0\.1)[:/])/, (route) => route.abort());
  return ctx;
};

const register = async (request: APIRequestContext, email: string, first: string, last: string) => {
  const res = await request.post("/api/auth/register", {
    data: { email, password: "strong-password-1", firstName: first, lastName: last, userType: "shipper" },
    timeout: 60_000,
  });
  expect(res.status()).toBe(201);
};

const uploadPdf = async (request: APIRequestContext, kind: string) => {
  const res = await request.post("/api/verification/files", {
    multipart: { kind, file: { name: `${kind}.pdf`, mimeType: "application/pdf", buffer: PDF } },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

const signInAt = async (page: Page, who: { email: string; password: string }, path: string) => {
  const res = await page.request.post("/api/auth/login", { data: who, timeout: 60_000 });
  expect(res.ok()).toBe(true);
  await page.goto(path);
};

test("an operator approves a shipper's verification; the driver sees Verified on the board, the load and the company", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const title = `Sesame ${Date.now()}`;
  const company = `Gode Traders ${Date.now() % 100_000}`;

  // The shipper: an account, their company, their papers, a load.
  const shipperCtx = await contextAt(browser, DESKTOP);
  const shipper = shipperCtx.request;
  await register(shipper, uniqueEmail("meron"), "Meron", "Tadesse");
  expect(
    (await shipper.post("/api/companies", { data: { kind: "shipper", name: company, country: "ET" } })).status(),
  ).toBe(201);
  const sent = await shipper.post("/api/verification", {
    data: {
      country: "ET",
      tradeLicenceNumber: "SO/3/778/2017",
      tin: "0098765432",
      insuranceExpiresOn: new Date(Date.now() + 400 * DAY).toISOString().slice(0, 10),
      fileIds: [await uploadPdf(shipper, "trade_licence"), await uploadPdf(shipper, "insurance")],
    },
  });
  expect(sent.status()).toBe(201);
  const posted = await shipper.post("/api/loads", {
    data: {
      title,
      equipmentType: "dry_van",
      pickupAddress: "Gode market",
      pickupCity: "Gode",
      pickupCountry: "Ethiopia",
      pickupLatitude: GODE.latitude,
      pickupLongitude: GODE.longitude,
      deliveryAddress: "Dire Dawa dry port",
      deliveryCity: "Dire Dawa",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 9.6,
      deliveryLongitude: 41.85,
      pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 5 * DAY).toISOString(),
      weight: 20000,
      budgetAmount: 90000,
      budgetCurrency: "ETB",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = ((await posted.json()) as { id: number }).id;

  // The driver's board before the approval: the shipper's company, no badge.
  const driverCtx = await contextAt(browser, DESKTOP);
  const driver = await driverCtx.newPage();
  await signInAt(driver, DEMO.driver, BOARD);
  const row = driver.getByTestId("load-row").filter({ hasText: company });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByTestId("verified-mark")).toHaveCount(0);

  // The operator approves on the review page.
  const operatorEmail = uniqueEmail("operator");
  const operatorCtx = await contextAt(browser, DESKTOP);
  const operator = await operatorCtx.newPage();
  await register(operator.request, operatorEmail, "Ops", "Desk");
  makeOperator(operatorEmail);
  await operator.goto("/operator/verification");
  const submission = operator.getByTestId("verification-submission").filter({ hasText: "Meron Tadesse" });
  await expect(submission).toBeVisible({ timeout: 30_000 });
  await submission.getByTestId("approve-verification").click();
  await expect(submission).toHaveCount(0);

  // The board's row now carries the mark, its tooltip saying what was verified.
  await driver.reload();
  await expect(row.getByTestId("verified-mark")).toBeVisible({ timeout: 30_000 });
  await expect(row.getByTestId("verified-mark")).toHaveAttribute("title", /Trade licence · TIN · Insurance until/);

  // The load's page: the shipper's block with the badge, what was verified and the loads posted.
  await driver.goto(`/loads/${loadId}`);
  const block = driver.getByTestId("shipper-trust");
  await expect(block).toBeVisible({ timeout: 30_000 });
  await expect(block.getByText("Verified", { exact: true })).toBeVisible();
  await expect(block.getByTestId("verified-parts")).toContainText("Trade licence · TIN");
  await expect(block.getByTestId("loads-posted")).toHaveText("1 load posted");
  await expect(block).not.toContainText("SO/3/778/2017");

  // The company's public profile, from the shipper's name.
  await block.getByTestId("company-link").click();
  await expect(driver).toHaveURL(/\/companies\/\d+$/);
  await expect(driver.getByTestId("company-name")).toHaveText(company);
  await expect(driver.getByTestId("company-profile").getByText("Verified", { exact: true })).toBeVisible();
  await expect(driver.getByTestId("company-record")).toHaveText("1");

  // An unknown company is the not-found card.
  await driver.goto("/companies/99999999");
  await expect(driver.getByTestId("company-missing")).toBeVisible({ timeout: 30_000 });

  // On a phone, in Afaan Oromo: the two-line row keeps the mark, and the load's block wraps inside the screen.
  const phoneCtx = await contextAt(browser, PHONE);
  const phone = await phoneCtx.newPage();
  const res = await phone.request.post("/api/auth/login", { data: DEMO.driver, timeout: 60_000 });
  expect(res.ok()).toBe(true);
  expect((await phone.request.put("/api/user/language", { data: { language: "om" } })).ok()).toBe(true);
  try {
    await phone.goto(BOARD);
    const line = phone.getByTestId("load-results").getByTestId("load-line").filter({ hasText: "Gode" });
    await expect(line.first()).toBeVisible({ timeout: 30_000 });
    await expect(line.first().getByTestId("verified-mark")).toBeVisible();
    await phone.goto(`/loads/${loadId}`);
    const phoneBlock = phone.getByTestId("shipper-trust");
    await expect(phoneBlock).toBeVisible({ timeout: 30_000 });
    await expect(phoneBlock).toContainText("Mirkanaa'eera");
    const box = (await phoneBlock.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // Nothing inside the block runs past its right edge.
    const overflow = await phoneBlock.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  } finally {
    await phone.request.put("/api/user/language", { data: { language: "en" } });
  }

  for (const ctx of [shipperCtx, driverCtx, operatorCtx, phoneCtx]) await ctx.close();
});
