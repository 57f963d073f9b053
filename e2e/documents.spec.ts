import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A phone camera's photo: larger than the 2,000 px the app sends. */
const cameraPhoto = async (name: string) => ({
  name,
  mimeType: "image/jpeg",
  buffer: await sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer(),
});

/** A one-page PDF, as a scanner app makes a bill of lading. */
const bolPdf = {
  name: "BOL-2291.pdf",
  mimeType: "application/pdf",
  buffer: Buffer.from(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  ),
};

const minHeight = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())?.height ?? 0;

// After the award, either party adds paperwork from the load's page on a phone: the driver a bill of lading (a PDF)
// and a photo, one of them taken in a dead zone; the shipper sees both on their load page and opens one.
test("the driver adds a bill of lading and photos from the trip panel, and the shipper opens them", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const shipperCtx = await browser.newContext(phone);
  const driverCtx = await browser.newContext(phone);
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Meron", last: "Alemu", email: uniqueEmail("meron") });
  // On a phone the account menu sits behind "Open menu": the dashboard's heading says the account is in.
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Chala", last: "Gudina", email: uniqueEmail("chala") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible();

  const title = `Sesame, 12 t ${Date.now()}`;
  const posted = await shipper.request.post("/api/loads", {
    data: {
      title,
      equipmentType: "dry_van",
      pickupAddress: "Merkato",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 9.03,
      pickupLongitude: 38.74,
      deliveryAddress: "Port road",
      deliveryCity: "Dire Dawa",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 9.6,
      deliveryLongitude: 41.85,
      pickupDate: new Date(Date.now() + DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 2 * DAY).toISOString(),
      weight: 12000,
      budgetAmount: 700,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  const bid = await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 650, currency: "USD" } });
  expect((await shipper.request.post(`/api/bids/${(await bid.json()).bid.id}/accept`)).status()).toBe(200);

  await driver.goto(`/loads/${loadId}`);
  const docs = driver.getByTestId("trip-documents");
  await expect(docs.getByTestId("documents-empty")).toBeVisible();
  expect(await minHeight(driver, "add-document")).toBeGreaterThanOrEqual(44);

  // A bill of lading from the phone's files.
  await docs.getByTestId("add-document").click();
  const dialog = driver.getByTestId("add-document-dialog");
  await expect(dialog.getByRole("radio", { name: "Bill of lading" })).toBeChecked();
  expect(await minHeight(driver, "document-file")).toBeGreaterThanOrEqual(44);
  // Something that is neither a photo nor a PDF is named before anything is sent.
  await dialog
    .getByTestId("document-file-input")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("seal 4471") });
  await expect(dialog.getByRole("alert")).toHaveText(
    "notes.txt cannot be added: choose a photo (JPEG, PNG or WebP) or a PDF.",
  );
  await dialog.getByTestId("document-file-input").setInputFiles(bolPdf);
  await expect(dialog).toBeHidden();
  await expect(driver.getByTestId("toast").filter({ hasText: "Document added" })).toBeVisible();
  const bol = docs.locator('[data-testid="trip-document"][data-type="bol"]');
  await expect(bol).toContainText("Bill of lading");
  await expect(bol.getByTestId("trip-document-name")).toHaveText("BOL-2291.pdf");
  await expect(bol).toContainText("by you");

  // A photo of the sealed truck, from the camera, in a dead zone: it waits on the phone, then goes.
  await docs.getByTestId("add-document").click();
  await dialog.getByText("Photo", { exact: true }).click();
  await expect(dialog.getByRole("radio", { name: "Photo" })).toBeChecked();
  const camera = dialog.getByTestId("document-camera-input");
  await expect(camera).toHaveAttribute("capture", "environment");
  await expect(camera).toHaveAttribute("accept", "image/*");
  await driverCtx.setOffline(true);
  await camera.setInputFiles(await cameraPhoto("IMG_2040.jpg"));
  await expect(dialog).toBeHidden();
  await expect(docs.getByTestId("pending-documents")).toContainText("Waiting for network · 1 file queued");
  await driverCtx.setOffline(false);
  await expect(docs.getByTestId("pending-documents")).toBeHidden({ timeout: 20_000 });
  const photo = docs.locator('[data-testid="trip-document"][data-type="photo"]');
  await expect(photo).toContainText("Photo");
  await expect(photo.getByTestId("trip-document-name")).toHaveText("IMG_2040.jpg");

  // Stored once each, the photo made small on the phone.
  const stored = (await (await shipper.request.get(`/api/loads/${loadId}/documents`)).json()) as {
    type: string;
    url: string;
  }[];
  expect(stored.map((d) => d.type)).toEqual(["bol", "photo"]);
  const meta = await sharp(await (await shipper.request.get(stored[1]!.url)).body()).metadata();
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(2000);

  // The shipper sees both on the load's page, with who added them, and opens the photo.
  await shipper.goto(`/loads/${loadId}`);
  const theirDocs = shipper.getByTestId("trip-documents");
  await expect(theirDocs.getByTestId("trip-document")).toHaveCount(2);
  await expect(theirDocs.locator('[data-type="bol"]')).toContainText("by Chala Gudina");
  const open = theirDocs.locator('[data-type="photo"]').getByTestId("trip-document-open");
  expect((await open.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  const [tab] = await Promise.all([shipper.waitForEvent("popup"), open.click()]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe(stored[1]!.url);
  await expect.poll(() => tab.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2000);
});
