import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Headless Chromium has no push service to subscribe with, so the page's PushManager is replaced by one that makes a
// subscription as a browser would (a fresh P-256 key and auth secret, an https endpoint) and keeps it across reloads.
// Everything else is real: permission comes from the browser context, the service worker must be ready, and the
// subscription goes to the server through the panel.
const fakePushManager = () => {
  const KEY = "e2e-push-subscription";
  const b64url = (buf: ArrayBuffer | Uint8Array) =>
    btoa(String.fromCharCode(...new Uint8Array(buf)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const wrap = (json: { endpoint: string }) => ({
    endpoint: json.endpoint,
    toJSON: () => json,
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  PushManager.prototype.getSubscription = async () => {
    const saved = localStorage.getItem(KEY);
    return (saved ? wrap(JSON.parse(saved)) : null) as unknown as PushSubscription;
  };
  PushManager.prototype.subscribe = async (opts?: PushSubscriptionOptionsInit) => {
    if (!opts?.applicationServerKey) throw new Error("applicationServerKey is required");
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const json = {
      endpoint: `https://push.example.test/e2e/${crypto.randomUUID()}`,
      expirationTime: null,
      keys: {
        p256dh: b64url(await crypto.subtle.exportKey("raw", pair.publicKey)),
        auth: b64url(crypto.getRandomValues(new Uint8Array(16))),
      },
    };
    localStorage.setItem(KEY, JSON.stringify(json));
    return wrap(json) as unknown as PushSubscription;
  };
};

test("push panel: permission granted, the switch subscribes, preferences are saved and come back after a reload", async ({
  browser,
  baseURL,
}) => {
  const ctx = await browser.newContext();
  await ctx.grantPermissions(["notifications"], { origin: baseURL });
  await ctx.addInitScript(fakePushManager);
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Shipper", first: "Tigist", last: "Haile", email: uniqueEmail("tigist") });
  const panel = page.getByTestId("push-panel");
  await expect(panel.getByText("Push Notifications", { exact: true })).toBeVisible();
  await expect(page.getByTestId("push-permission")).toHaveText("Granted");

  const toggle = page.getByTestId("push-switch");
  await expect(toggle).toHaveAttribute("data-state", "unchecked");
  await toggle.click();
  await expect(page.getByTestId("toast").getByText("Notifications Enabled")).toBeVisible();
  await expect(toggle).toHaveAttribute("data-state", "checked");
  const stored = await page.request.get("/api/push/preferences");
  const prefs = await stored.json();
  expect(prefs.subscriptions).toHaveLength(1);
  expect(prefs.subscriptions[0].endpoint).toMatch(/^https:\/\/push\.example\.test\/e2e\//);

  // The product's defaults, then changed and saved.
  await expect(page.getByTestId("push-type-marketing")).toHaveAttribute("data-state", "unchecked");
  await page.getByTestId("push-type-marketing").click();
  await page.getByTestId("push-type-loadUpdates").click();
  await page.getByTestId("push-quiet").click();
  await page.getByLabel("From", { exact: true }).fill("21:30");
  await page.getByLabel("Until", { exact: true }).fill("06:45");
  await page.getByLabel("Time zone", { exact: true }).selectOption("Africa/Addis_Ababa");
  await page.getByTestId("push-save").click();
  await expect(page.getByTestId("toast").getByText("Settings Saved")).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("push-switch")).toHaveAttribute("data-state", "checked");
  await expect(page.getByTestId("push-type-marketing")).toHaveAttribute("data-state", "checked");
  await expect(page.getByTestId("push-type-loadUpdates")).toHaveAttribute("data-state", "unchecked");
  await expect(page.getByTestId("push-quiet")).toHaveAttribute("data-state", "checked");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("21:30");
  await expect(page.getByLabel("Until", { exact: true })).toHaveValue("06:45");
  await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("Africa/Addis_Ababa");

  // Off: the server forgets the subscription.
  await page.getByTestId("push-switch").click();
  await expect(page.getByTestId("toast").getByText("Notifications Disabled")).toBeVisible();
  expect((await (await page.request.get("/api/push/preferences")).json()).subscriptions).toEqual([]);
  await ctx.close();
});

test("a browser without push support sees 'Push Notifications Not Available'", async ({ browser }) => {
  const ctx = await browser.newContext();
  await ctx.addInitScript(() => {
    // biome-ignore lint/suspicious/noExplicitAny: removing the API the panel looks for
    delete (window as any).PushManager;
  });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Driver", first: "Gemechu", last: "Bekele", email: uniqueEmail("gemechu") });
  await expect(page.getByText("Push Notifications Not Available")).toBeVisible();
  await ctx.close();
});
