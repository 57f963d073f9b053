import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { cameraPhoto, signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// A driver at a warehouse gate without signal: the photo proof of delivery is kept on the phone, sent when the network
// returns, and the shipper accepts it, which completes the load.
test("a proof of delivery taken offline is sent when the network returns, and the shipper accepts it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const shipperCtx = await browser.newContext(phone);
  const driverCtx = await browser.newContext(phone);
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Hirut", last: "Bekele", email: uniqueEmail("hirut") });
  await expect(shipper.getByTestId("user-menu")).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Kebede", last: "Tola", email: uniqueEmail("kebede") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();

  const title = `Coffee, 8 t ${Date.now()}`;
  const posted = await shipper.request.post("/api/loads", {
    data: {
      title,
      equipmentType: "dry_van",
      pickupAddress: "Merkato",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 9.03,
      pickupLongitude: 38.74,
      deliveryAddress: "Adama Industrial Park",
      deliveryCity: "Adama",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 8.54,
      deliveryLongitude: 39.27,
      pickupDate: new Date(Date.now() + DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 2 * DAY).toISOString(),
      weight: 17000,
      budgetAmount: 600,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  const bid = await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 550, currency: "USD" } });
  expect((await shipper.request.post(`/api/bids/${(await bid.json()).bid.id}/accept`)).status()).toBe(200);
  expect((await driver.request.post(`/api/loads/${loadId}/pickup`)).status()).toBe(200);

  await driver.goto("/driver");
  const trip = driver.locator(`[data-testid="trip-row"][data-load-id="${loadId}"]`);
  await expect(trip.getByTestId("load-status")).toHaveText("In transit");
  await trip.getByTestId("record-delivery").click();
  const dialog = driver.getByTestId("pod-dialog");

  // Nothing to prove yet: the dialog says what is missing, by field.
  await dialog.getByTestId("pod-continue").click();
  await expect(dialog).toContainText("Type the name of the person who received the load.");
  await expect(dialog).toContainText("Take at least one photo, or have the receiver sign.");
  await expect(dialog.getByLabel("Receiver's name")).toBeFocused();

  // At the gate, no signal: two photos from the camera, made small on the phone.
  await driverCtx.setOffline(true);
  const camera = dialog.getByTestId("pod-photo-input");
  await expect(camera).toHaveAttribute("capture", "environment");
  await expect(camera).toHaveAttribute("accept", "image/*");
  await camera.setInputFiles([await cameraPhoto("IMG_0001.jpg", 200), await cameraPhoto("IMG_0002.jpg", 40)]);
  await expect(dialog.getByTestId("pod-photos").locator("li")).toHaveCount(2);
  await dialog.getByLabel("Receiver's name").fill("Almaz Tesfaye");
  await dialog.getByTestId("pod-continue").click();
  await expect(dialog.getByTestId("pod-confirm")).toContainText(
    "Record the delivery to Almaz Tesfaye with 2 photos? The shipper is then asked to accept it.",
  );
  await dialog.getByTestId("pod-send").click();
  await expect(dialog).toBeHidden();
  await expect(driver.getByTestId("toast").filter({ hasText: "Saved on this phone" })).toBeVisible();
  const pending = trip.getByTestId("pending-pod");
  await expect(pending).toContainText("Waiting for network · 2 photos queued");
  // The one proof waits: it cannot be recorded a second time meanwhile.
  await expect(trip.getByTestId("record-delivery")).toBeHidden();
  expect((await shipper.request.get(`/api/loads/${loadId}/documents`)).ok()).toBe(true);
  expect(await (await shipper.request.get(`/api/loads/${loadId}/documents`)).json()).toEqual([]);

  // The network returns: the photos go, then the delivery.
  await driverCtx.setOffline(false);
  await expect(pending).toBeHidden({ timeout: 20_000 });
  await expect(trip.getByTestId("load-status")).toHaveText("Delivered");
  const documents = (await (await shipper.request.get(`/api/loads/${loadId}/documents`)).json()) as {
    type: string;
    url: string;
  }[];
  // Once each, never twice.
  expect(documents.map((d) => d.type)).toEqual(["photo", "photo"]);
  const stored = await sharp(await (await shipper.request.get(documents[0]!.url)).body()).metadata();
  expect(Math.max(stored.width ?? 0, stored.height ?? 0)).toBe(2000);

  // The shipper sees the proof and accepts it: the load is completed.
  await shipper.goto("/shipper");
  const myLoad = shipper.locator(`[data-testid="my-load"][data-load-id="${loadId}"]`);
  await expect(myLoad.getByTestId("load-status")).toHaveText("Delivered");
  // After the award the card shows the price agreed, not a best bid.
  await expect(myLoad.getByTestId("agreed-price")).toHaveText("Agreed price: $550.00");
  await expect(myLoad.getByTestId("best-bid")).toHaveCount(0);
  const review = myLoad.getByTestId("review-delivery");
  expect((await review.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await review.click();
  const proof = shipper.getByTestId("pod-review");
  await expect(proof.getByTestId("pod-receiver")).toHaveText("Almaz Tesfaye");
  await expect(proof.getByTestId("pod-photo")).toHaveCount(2);
  await expect
    .poll(() =>
      proof
        .getByTestId("pod-photo")
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
  await proof.getByTestId("accept-delivery").click();
  // Asked once more: accepting completes the load.
  await expect(proof.getByTestId("accept-delivery-question")).toContainText("cannot be undone");
  await expect(myLoad.getByTestId("load-status")).not.toHaveText("Completed");
  await proof.getByTestId("accept-delivery-confirm").click();
  await expect(proof).toBeHidden();
  await expect(myLoad.getByTestId("load-status")).toHaveText("Completed");
  const timeline = (await (await driver.request.get(`/api/loads/${loadId}/timeline`)).json()) as { kind: string }[];
  expect(timeline.map((e) => e.kind)).toEqual(["awarded", "picked_up", "delivered", "pod_accepted", "completed"]);
});
