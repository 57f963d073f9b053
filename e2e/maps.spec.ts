import { type Browser, expect, test } from "@playwright/test";
import { DEMO, signIn } from "./helpers";

// The basemap's countries are parsed and tiled before a map says it is ready: slow on a loaded machine.
test.setTimeout(120_000);

/** Nothing leaves the machine: any request that is not to the app is refused, and noted. */
const offlineContext = async (browser: Browser) => {
  const blocked: string[] = [];
  const ctx = await browser.newContext();
  await ctx.route(/^https?:\/\/(?!(localhost|127\.0\.0\.1)[:/])/, (route) => {
    blocked.push(route.request().url());
    return route.abort();
  });
  return { ctx, blocked };
};

/** The map really has room on the page (a container that collapsed would hide the canvas and the labels). */
const expectDrawnArea = async (map: import("@playwright/test").Locator) => {
  const box = await map.locator(".maplibregl-map").boundingBox();
  expect(box?.height ?? 0).toBeGreaterThan(200);
  expect(box?.width ?? 0).toBeGreaterThan(200);
};

test("a load's page shows its route on a map, drawn without the internet", async ({ browser }) => {
  const { ctx, blocked } = await offlineContext(browser);
  const page = await ctx.newPage();
  await signIn(page, DEMO.shipper);
  const res = await page.request.get("/api/loads/shipper");
  expect(res.ok()).toBe(true);
  const loads = (await res.json()) as { id: number; pickupLocation: string; deliveryLocation: string }[];
  expect(loads.length).toBeGreaterThan(0);
  const load = loads[0];

  await page.goto(`/loads/${load.id}`);
  const map = page.getByTestId("route-map");
  await expect(map).toHaveAttribute("data-map-ready", "true", { timeout: 60_000 });
  await expect(map.locator("canvas")).toBeVisible();
  await expectDrawnArea(map);
  const legend = map.getByRole("list", { name: "Map legend" });
  await expect(legend).toContainText(`Pickup: ${load.pickupLocation}`);
  await expect(legend).toContainText(`Delivery: ${load.deliveryLocation}`);
  // The place names are HTML labels on the map (no fonts to download); the basemap's own labels give way to them.
  const routeLabel = (text: string) =>
    map.locator(".maplibregl-marker:not([data-testid=map-place-label])", { hasText: text });
  await expect(routeLabel(load.pickupLocation)).toBeVisible();
  await expect(routeLabel(load.deliveryLocation)).toBeVisible();
  await expect(page.getByTestId("map-unavailable")).toHaveCount(0);
  await map.screenshot({ path: test.info().outputPath("route-map.png") });
  expect(blocked).toEqual([]);
  await ctx.close();
});

test("a party sees the trip's track and the last position with its time", async ({ browser }) => {
  const { ctx, blocked } = await offlineContext(browser);
  const page = await ctx.newPage();
  await signIn(page, DEMO.shipper);
  const loads = (await (await page.request.get("/api/loads/shipper")).json()) as {
    id: number;
    pickupLatitude: number;
    pickupLongitude: number;
    deliveryLatitude: number;
    deliveryLongitude: number;
  }[];
  const load = loads[0];
  // The demo has no trip under way: the load's answer gets a track of three points on the way.
  const at = (f: number, minutes: number) => ({
    latitude: load.pickupLatitude + (load.deliveryLatitude - load.pickupLatitude) * f,
    longitude: load.pickupLongitude + (load.deliveryLongitude - load.pickupLongitude) * f,
    recordedAt: new Date(Date.now() - minutes * 60_000).toISOString(),
  });
  const points = [at(0, 90), at(0.2, 60), at(0.4, 30)];
  await page.route(/\/trpc\/.*loads\.byId/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { result?: { data?: { id?: number; track?: unknown } } }[];
    for (const item of body)
      if (item.result?.data?.id === load.id) item.result.data.track = { points, lastPosition: points[2] };
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`/loads/${load.id}`);
  const map = page.getByTestId("route-map");
  await expect(map).toHaveAttribute("data-map-ready", "true", { timeout: 60_000 });
  await expect(map.getByTestId("legend-last-position")).toContainText("Last position");
  await expect(map.getByTestId("last-position-marker")).toBeVisible();
  expect(blocked).toEqual([]);
  await ctx.close();
});

test("without WebGL the load's page says so and keeps the legend", async ({ browser }) => {
  const { ctx } = await offlineContext(browser);
  await ctx.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      if (/webgl/.test(type)) return null;
      return (original as (...a: unknown[]) => unknown).call(this, type, ...rest);
    } as typeof original;
  });
  const page = await ctx.newPage();
  await signIn(page, DEMO.shipper);
  const loads = (await (await page.request.get("/api/loads/shipper")).json()) as { id: number }[];
  await page.goto(`/loads/${loads[0].id}`);
  const map = page.getByTestId("route-map");
  await expect(map.getByTestId("map-unavailable")).toHaveText("Map not available on this device");
  await expect(map.getByRole("list", { name: "Map legend" })).toContainText("Pickup");
  await ctx.close();
});

test("the load board switches between a list and a map of its loads", async ({ browser }) => {
  const { ctx, blocked } = await offlineContext(browser);
  const page = await ctx.newPage();
  await signIn(page, DEMO.driver, "/loads");
  await page.goto("/loads");
  await expect(page.getByTestId("view-list")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("view-map").click();
  await expect(page.getByTestId("view-map")).toHaveAttribute("aria-pressed", "true");
  const map = page.getByTestId("loads-map");
  await expect(map).toHaveAttribute("data-map-ready", "true", { timeout: 60_000 });
  const markers = Number(await map.getAttribute("data-markers"));
  expect(markers).toBeGreaterThan(0);
  await expectDrawnArea(map);
  await map.screenshot({ path: test.info().outputPath("loads-map.png") });
  await expect(page.getByTestId("load-results").getByTestId("load-row")).toHaveCount(0);

  // Back to the list: the rows return.
  await page.getByTestId("view-list").click();
  await expect(page.getByTestId("loads-map")).toHaveCount(0);
  await expect(page.getByTestId("load-results").getByTestId("load-row").first()).toBeVisible();
  expect(blocked).toEqual([]);
  await ctx.close();
});

test("the board's map: our own basemap and place names, clusters counting every load within the radius", async ({
  browser,
}) => {
  const { ctx, blocked } = await offlineContext(browser);
  const page = await ctx.newPage();
  const origin = new URL(test.info().project.use.baseURL ?? "http://localhost").origin;
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await signIn(page, DEMO.driver, "/loads");
  await page.goto("/loads");
  const pointsAnswer = page.waitForResponse((r) => /\/trpc\/.*loads\.points/.test(r.url()) && r.ok());
  await page.getByTestId("view-map").click();
  const body = (await (await pointsAnswer).json()) as { result?: { data?: { points: unknown[] } } }[];
  const total = body.find((b) => b.result?.data?.points)?.result?.data?.points.length ?? 0;
  // More loads lie within the driver's radius than one page of the board shows.
  expect(total).toBeGreaterThan(20);

  const map = page.getByTestId("loads-map");
  await expect(map).toHaveAttribute("data-map-ready", "true", { timeout: 60_000 });
  await expect(map).toHaveAttribute("data-points", "all");
  await expect(map).toHaveAttribute("data-markers", String(total));
  await expect(map).toHaveAttribute("data-basemap", "own");
  // Every load is in a cluster or drawn alone, and the clusters' buttons say how many each holds.
  await expect
    .poll(
      async () => Number(await map.getAttribute("data-in-clusters")) + Number(await map.getAttribute("data-single")),
    )
    .toBe(total);
  const clusters = map.getByTestId("map-cluster");
  expect(await clusters.count()).toBeGreaterThan(0);
  const counts = await clusters.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.count)));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(Number(await map.getAttribute("data-in-clusters")));
  await expect(clusters.first()).toHaveAccessibleName(/^\d+ loads here: zoom in$/);
  const box = await clusters.first().boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);

  // The countries come from our own server, and place names from our gazetteer.
  const basemap = requests.filter((u) => /countries-50m-[^/]+\.json$/.test(u));
  expect(basemap.length).toBeGreaterThan(0);
  for (const u of basemap) expect(new URL(u).origin).toBe(origin);
  await expect(map.getByTestId("map-place-label").filter({ hasText: "Addis Ababa" })).toHaveCount(1);
  await map.screenshot({ path: test.info().outputPath("loads-map-clusters.png") });

  // A cluster zooms in when pressed: the clusters split or give way to single loads.
  const before = Number(await map.getAttribute("data-single"));
  const beforeClusters = await clusters.count();
  await clusters.first().click();
  await expect
    .poll(async () => Number(await map.getAttribute("data-single")) + (await clusters.count()))
    .not.toBe(before + beforeClusters);
  for (const u of requests) expect(new URL(u).origin).toBe(origin);
  expect(blocked).toEqual([]);
  await ctx.close();
});

test("in Amharic the map's place names are in Ge'ez script", async ({ browser }) => {
  const { ctx, blocked } = await offlineContext(browser);
  const page = await ctx.newPage();
  await signIn(page, DEMO.shipper, "/loads");
  await page.goto("/loads");
  await page.getByTestId("view-map").click();
  const map = page.getByTestId("loads-map");
  await expect(map).toHaveAttribute("data-map-ready", "true", { timeout: 60_000 });
  await expect(map.getByTestId("map-place-label").filter({ hasText: "Addis Ababa" })).toHaveCount(1);
  await page.getByTestId("language-select").first().selectOption({ label: "አማርኛ" });
  try {
    await expect(map.getByTestId("map-place-label").filter({ hasText: "አዲስ አበባ" })).toHaveCount(1);
    await expect(map.getByTestId("map-place-label").filter({ hasText: "Addis Ababa" })).toHaveCount(0);
    await map.screenshot({ path: test.info().outputPath("loads-map-am.png") });
  } finally {
    // The demo account keeps its language: back to English for the specs that follow.
    await page.getByTestId("language-select").first().selectOption({ label: "English" });
  }
  expect(blocked).toEqual([]);
  await ctx.close();
});
