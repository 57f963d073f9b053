import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { BOARD_SANDBOX_CREDENTIALS } from "../../../emulators/boards/server";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { STORE_SANDBOX_CREDENTIALS } from "../../../emulators/stores/server";
import { sandboxOriginsFromEnv } from "../integrations/boards/services";
import { notifiersFromEnv, webPushHostsFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { MAX_PUSH_SUBSCRIPTIONS, PUSH_TESTS_PER_HOUR } from "../modules/notifications/push";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp, testBoardServices } from "../testing";
import { INTERNAL_SECRET, resolveNames, startRecordingListener } from "../testing-outgoing";

// What a signed-in user with premium (a new account's trial) can make the server call, through the real routes:
// board configurations (connection test, search, sync job) and store integrations (connection test, sync). A listener
// on every loopback address records each connection; none may reach it, and no answer may carry what it would say.

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const listener = startRecordingListener();
const P = listener.port;
// The operator's Sandbox: a host that redirects wherever a test asks, and a feed that refuses with a telling body.
const sandbox = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req) => {
    const url = new URL(req.url);
    if (url.pathname.startsWith("/to/"))
      return new Response(null, { status: 302, headers: { location: decodeURIComponent(url.pathname.slice(4)) } });
    return Response.json({ message: INTERNAL_SECRET }, { status: 401 });
  },
});
const SANDBOX = `http://sandbox.test:${sandbox.port}`;
// The push service emulator (HTTPS, decrypting what it gets): the operator's Sandbox push service in these tests.
const push = startNotifyEmulators();
const notifiers = notifiersFromEnv(
  { ...push.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);
afterAll(() => {
  listener.stop();
  sandbox.stop(true);
  push.stop();
});

let t: TTestApp;
let user: ReturnType<typeof createClient>;
let shipper: ReturnType<typeof createClient>;
let shipperId: number;
let restore: () => void;
beforeEach(async () => {
  listener.connections.length = 0;
  restore = resolveNames({
    "sandbox.test": "127.0.0.1",
    "localtest.me": "127.0.0.1",
    "feed.example.com": "127.0.0.1",
    "broker.example.net": ["93.184.216.34", "::1"],
    "acme.myshopify.com": "127.0.0.1",
  }).restore;
  t = await createTestApp({}, undefined, notifiers, testBoardServices({ sandbox: [SANDBOX] }));
  user = createClient(t);
  await registerUser(user, "driver");
  expect((await user.post("/api/drivers/location", { latitude: 41.85, longitude: -87.65 })).status).toBe(200);
  shipper = createClient(t, "10.0.0.2");
  shipperId = (await registerUser(shipper, "shipper")).id;
});
afterEach(async () => {
  restore();
  await closeTestApps();
});

/** Every answer and stored row a test produced, for the one check that matters: the listener's words are nowhere. */
const seen: string[] = [];
const said = <T>(res: T) => {
  seen.push(JSON.stringify(res));
  return res;
};
const noSecret = async () => {
  const rows = await t.rows(
    "select last_error from marketplace_configs union all select last_error from ecommerce_integrations union all select error from sync_runs",
  );
  expect(JSON.stringify(rows)).not.toContain(INTERNAL_SECRET);
  expect(seen.join("\n")).not.toContain(INTERNAL_SECRET);
  expect(listener.connections).toEqual([]);
};

const addBoard = (provider: keyof typeof BOARD_SANDBOX_CREDENTIALS, apiBaseUrl: string) =>
  user.post("/api/marketplaces", {
    provider,
    name: `My ${provider}`,
    apiBaseUrl,
    syncEnabled: false,
    config: BOARD_SANDBOX_CREDENTIALS[provider],
  });

const worker = () =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({
      notifiers: t.services.notifiers,
      baseUrl: "https://mytess.example",
      boards: t.services.boards,
    }),
    schedules: [],
    autoStart: false,
  });

/**
 * Test connection, live search (the load board's and the configuration's own) and, once sync is switched on, a sync
 * job of a saved configuration.
 */
const everyCall = async (id: number) => {
  const tested = said(await user.post(`/api/marketplaces/${id}/test`));
  const searched = said(await user.post(`/api/marketplaces/${id}/search`, {}));
  const board = said(
    await user.get(
      `/trpc/loads.search?input=${encodeURIComponent(JSON.stringify({ latitude: 41.85, longitude: -87.65, radius: 100 }))}`,
    ),
  );
  if (said(await user.put(`/api/marketplaces/${id}`, { syncEnabled: true })).json.syncEnabled) {
    expect((await user.post("/api/sync/manual")).status).toBe(200);
    await worker().runOnce();
  }
  const runs = said((await user.get("/api/marketplaces/sync-runs")).json as { configId: number; error: string }[]);
  return { tested, searched, board, run: runs.find((r) => r.configId === id) };
};

describe("board configurations cannot point the server at its own network", () => {
  test("every spelling of loopback, as an address a user types, is refused naming apiBaseUrl; nothing is stored", async () => {
    const forms = [
      `http://127.0.0.1:${P}`,
      `https://127.0.0.1:${P}`,
      `https://localhost.:${P}`,
      `https://127.1:${P}`,
      `https://0x7f.1:${P}`,
      `https://2130706433:${P}`,
      `https://[::1]:${P}`,
      `https://[::ffff:127.0.0.1]:${P}`,
      `https://[::127.0.0.1]:${P}`,
      `https://[64:ff9b::7f00:1]:${P}`,
      `https://intranet:${P}`,
      // The operator's Sandbox is one origin, not its host on any port.
      `http://sandbox.test:${P}`,
    ];
    for (const url of forms) {
      const res = said(await addBoard("other", url));
      expect([url, res.status, res.json.issues]).toEqual([
        url,
        400,
        [{ path: "apiBaseUrl", message: "apiBaseUrl must be a public https address" }],
      ]);
    }
    // User info never passes (the request schema already refuses it).
    const userInfo = said(await addBoard("other", `https://x@feed.example.com:${P}`));
    expect([userInfo.status, userInfo.json.issues[0].path]).toEqual([400, "apiBaseUrl"]);
    // DAT, Truckstop and 123Loadboard: their own hosts only.
    for (const [provider, url] of [
      ["dat", "https://freight.api.prod.dat.com.evil.com"],
      ["dat", `https://freight.api.prod.dat.com:${P}`],
      ["truckstop", `https://localtest.me:${P}`],
      ["123loadboard", "http://api.123loadboard.com"],
    ] as const) {
      const res = said(await addBoard(provider, url));
      expect([url, res.status, res.json.issues[0].path]).toEqual([url, 400, "apiBaseUrl"]);
      expect(res.json.issues[0].message).toStartWith("apiBaseUrl must be an https address of ");
    }
    expect(await t.rows("select id from marketplace_configs")).toEqual([]);
    await noSecret();
  });

  test("a name that resolves to loopback (or to one private address among public ones) is refused at every call", async () => {
    for (const host of ["feed.example.com", "broker.example.net", "localtest.me"]) {
      const res = said(await addBoard("other", `https://${host}:${P}/v1`));
      expect(res.status).toBe(201);
      const { tested, searched, board, run } = await everyCall(res.json.id);
      const refused = `Load feed 'My other' was not called: this server calls only public https addresses, and ${host} is not one`;
      expect(tested.status).toBe(400);
      expect(tested.json.message).toBe(refused);
      expect(searched.json.message).toBe(refused);
      expect(board.json.result.data.boards).toEqual([
        expect.objectContaining({ name: "My other", state: "failed", error: refused }),
      ]);
      expect(run?.error).toBe(refused);
      expect((await user.del(`/api/marketplaces/${res.json.id}`)).status).toBe(200);
    }
    await noSecret();
  });

  test("a configuration saved under the old rules is refused before any call, naming apiBaseUrl", async () => {
    const feed = said(await addBoard("other", "https://feed.broker.example/v1"));
    const dat = said(await addBoard("dat", "https://freight.api.prod.dat.com"));
    await t.rows("update marketplace_configs set api_base_url = ? where id = ?", `http://127.0.0.1:${P}`, feed.json.id);
    await t.rows("update marketplace_configs set api_base_url = ? where id = ?", `https://[::1]:${P}`, dat.json.id);
    const feedCalls = await everyCall(feed.json.id);
    expect(feedCalls.tested.status).toBe(400);
    expect(feedCalls.tested.json.issues).toEqual([
      { path: "apiBaseUrl", message: "apiBaseUrl must be a public https address" },
    ]);
    expect(feedCalls.run?.error).toBe("apiBaseUrl must be a public https address");
    const datCalls = await everyCall(dat.json.id);
    expect(datCalls.tested.json.issues[0].path).toBe("apiBaseUrl");
    expect(datCalls.searched.json.message).toStartWith("apiBaseUrl must be an https address of DAT: ");
    await noSecret();
  });

  test("a redirect from the operator's Sandbox to loopback is not followed", async () => {
    for (const target of [`http://127.0.0.1:${P}/`, `https://localtest.me:${P}/`, `http://sandbox.test:${P}/`]) {
      const res = said(await addBoard("other", `${SANDBOX}/to/${encodeURIComponent(target)}`));
      expect(res.status).toBe(201);
      const tested = said(await user.post(`/api/marketplaces/${res.json.id}/test`));
      expect(tested.status).toBe(502);
      expect(tested.json.message).toBe(
        "Load feed 'My other' answered with a redirect to another address, which this server does not follow",
      );
    }
    await noSecret();
  });

  test("a feed's error body is never repeated: the answer names the feed and the status", async () => {
    const res = said(await addBoard("other", `${SANDBOX}/feed`));
    const { tested, searched, run } = await everyCall(res.json.id);
    expect(tested.status).toBe(400);
    expect(tested.json.message).toBe("Load feed refused the credentials of 'My other': HTTP 401");
    expect(searched.json.message).toBe("Load feed refused the credentials of 'My other': HTTP 401");
    expect(run?.error).toBe("Load feed refused the credentials of 'My other': HTTP 401");
    await noSecret();
  });
});

describe("store integrations: a shop is its myshopify.com name, platforms their own hosts", () => {
  const WAREHOUSE = { address: "Bole", city: "Addis Ababa", country: "Ethiopia", latitude: 8.955, longitude: 38.865 };
  const addStore = (platform: "shopify" | "amazon" | "alibaba", over: Record<string, unknown> = {}) =>
    shipper.post("/api/ecommerce/integrations", {
      platform,
      name: `My ${platform}`,
      credentials: STORE_SANDBOX_CREDENTIALS[platform],
      settings: { warehouse: WAREHOUSE },
      ...over,
    });

  test("a shop domain with a port, user info, a path or another domain is refused naming credentials.shopDomain", async () => {
    for (const shopDomain of [
      `127.0.0.1:${P}`,
      "x@127.0.0.1",
      `localhost:${P}`,
      `[::1]:${P}`,
      "foo.myshopify.com.evil.com",
      `acme.myshopify.com:${P}`,
      "acme.myshopify.com/admin",
      "evil.com#.myshopify.com",
    ]) {
      const res = said(await addStore("shopify", { credentials: { shopDomain, accessToken: "shpat_x" } }));
      expect([shopDomain, res.status, res.json.issues]).toEqual([
        shopDomain,
        400,
        [
          {
            path: "credentials.shopDomain",
            message: "credentials.shopDomain must be the shop's myshopify.com name, such as acme.myshopify.com",
          },
        ],
      ]);
    }
    for (const [platform, apiBaseUrl] of [
      ["shopify", `http://127.0.0.1:${P}`],
      ["shopify", "https://acme.myshopify.com.evil.com"],
      ["amazon", `https://localtest.me:${P}`],
      ["amazon", "https://sellingpartnerapi-na.amazon.com.evil.com"],
      ["alibaba", `https://[::ffff:127.0.0.1]:${P}`],
    ] as const) {
      const res = said(await addStore(platform, { settings: { warehouse: WAREHOUSE, apiBaseUrl } }));
      expect([apiBaseUrl, res.status, res.json.issues[0].path]).toEqual([apiBaseUrl, 400, "settings.apiBaseUrl"]);
    }
    expect(await t.rows("select id from ecommerce_integrations")).toEqual([]);
    await noSecret();
  });

  test("a shop whose name resolves to loopback, or one saved under the old rules, is never called", async () => {
    // A real shop's name, resolving where an attacker's DNS says.
    const shop = said(await addStore("shopify", { credentials: { shopDomain: "acme", accessToken: "shpat_x" } }));
    expect(shop.status).toBe(201);
    const tested = said(await shipper.post(`/api/ecommerce/integrations/${shop.json.id}/test`));
    expect(tested.json).toEqual({
      connected: false,
      message:
        "My shopify was not called: this server calls only public https addresses, and acme.myshopify.com is not one",
    });
    const synced = said(await shipper.post(`/api/ecommerce/integrations/${shop.json.id}/sync`));
    expect(synced.status).toBe(400);

    // Saved before shop domains were checked: "127.0.0.1:port" in the sealed credentials.
    const old = said(await addStore("shopify", { name: "Old shop" }));
    const sealed = t.services.stores.secrets.seal(
      JSON.stringify({ shopDomain: `127.0.0.1:${P}`, accessToken: "shpat_x" }),
    );
    await t.rows("update ecommerce_integrations set credentials = ? where id = ?", sealed, old.json.id);
    const oldTest = said(await shipper.post(`/api/ecommerce/integrations/${old.json.id}/test`));
    expect(oldTest.json).toEqual({
      connected: false,
      message: "credentials.shopDomain must be the shop's myshopify.com name, such as acme.myshopify.com",
    });
    const oldSync = said(await shipper.post(`/api/ecommerce/integrations/${old.json.id}/sync`));
    expect(oldSync.status).toBe(400);
    expect(oldSync.json.issues[0].path).toBe("credentials.shopDomain");
    await noSecret();
  });
});

describe("web push endpoints are the browsers' push services, at most 10 an account, tests 5 an hour", () => {
  const browser = () => push.push.subscribe({ applicationServerKey: notifiers.vapidPublicKey! });
  const endpoints = async (c = shipper) =>
    ((await c.get("/api/push/preferences")).json.subscriptions as { endpoint: string }[]).map((s) => s.endpoint);

  test("an endpoint elsewhere than a push service is refused naming endpoint; the services' own hosts are taken", async () => {
    const { subscription } = browser();
    for (const endpoint of [
      "https://evil.example.com/push/1",
      `https://127.0.0.1:${P}/push/1`,
      `https://localtest.me:${P}/push/1`,
      "https://[::1]/push/1",
      "https://fcm.googleapis.com:8443/fcm/send/1",
      "https://u@fcm.googleapis.com/fcm/send/1",
      "https://fcm.googleapis.com.evil.com/fcm/send/1",
      "https://push.apple.com.evil.com/1",
      "https://evilpush.apple.com/1",
    ]) {
      const res = said(await shipper.post("/api/push/subscribe", { ...subscription, endpoint }));
      expect([endpoint, res.status, res.json.issues]).toEqual([
        endpoint,
        400,
        [
          {
            path: "endpoint",
            message: "endpoint must be an address of a browser push service (Google, Mozilla, Apple or Microsoft)",
          },
        ],
      ]);
    }
    expect(await endpoints()).toEqual([]);
    const taken = [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://android.googleapis.com/gcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/QabcDEF",
      "https://wns2-par02p.notify.windows.com/w/?token=abc",
      subscription.endpoint,
    ];
    for (const endpoint of taken)
      expect((await shipper.post("/api/push/subscribe", { ...subscription, endpoint })).status).toBe(201);
    expect((await endpoints()).sort()).toEqual([...taken].sort());
    await noSecret();
  });

  test(`at most ${MAX_PUSH_SUBSCRIPTIONS} subscriptions an account: a new one replaces the oldest, also when they come at once`, async () => {
    const first = Array.from({ length: 12 }, () => browser().subscription);
    for (const s of first) expect((await shipper.post("/api/push/subscribe", s)).status).toBe(201);
    expect((await endpoints()).sort()).toEqual(
      first
        .slice(2)
        .map((s) => s.endpoint)
        .sort(),
    );
    const burst = Array.from({ length: 12 }, () => browser().subscription);
    const answers = await Promise.all(burst.map((s) => shipper.post("/api/push/subscribe", s)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    const kept = await endpoints();
    expect(kept).toHaveLength(MAX_PUSH_SUBSCRIPTIONS);
    expect(kept.every((e) => burst.some((s) => s.endpoint === e))).toBe(true);
    // Another account's subscriptions are not touched by this one's limit.
    expect((await user.post("/api/push/subscribe", browser().subscription)).status).toBe(201);
    expect(await endpoints(user)).toHaveLength(1);
    expect(await endpoints()).toHaveLength(MAX_PUSH_SUBSCRIPTIONS);
  });

  test(`the test send: ${PUSH_TESTS_PER_HOUR} an hour an account, also when 8 come at once`, async () => {
    const a = browser();
    const b = browser();
    for (const s of [a, b]) expect((await shipper.post("/api/push/subscribe", s.subscription)).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => shipper.post("/api/push/test", { title: "Test", message: "Hello" })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PUSH_TESTS_PER_HOUR);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(8 - PUSH_TESTS_PER_HOUR);
    expect(refused[0]!.json.message).toBe("You have sent 5 test notifications in the last hour; try again later");
    expect(refused[0]!.headers.get("retry-after")).toBe("3600");
    // Each allowed test reached both subscriptions once; the refused ones reached no one.
    expect(push.push.received(a.id)).toHaveLength(PUSH_TESTS_PER_HOUR);
    expect(push.push.received(b.id)).toHaveLength(PUSH_TESTS_PER_HOUR);
    // The history says what happened: five tests sent.
    const history = (await shipper.get("/api/push/notifications")).json as { type: string; status: string }[];
    expect(history.map((n) => [n.type, n.status])).toEqual(Array(PUSH_TESTS_PER_HOUR).fill(["test", "sent"]));
    // Another account has its own allowance.
    expect((await user.post("/api/push/subscribe", browser().subscription)).status).toBe(201);
    expect((await user.post("/api/push/test", { title: "Test", message: "Hello" })).status).toBe(200);
  });

  test("a subscription stored before the list was enforced is dropped at the next send, and nothing reaches it", async () => {
    const { subscription } = browser();
    for (const endpoint of [`https://127.0.0.1:${P}/push/old`, `https://localtest.me:${P}/push/old`])
      await t.rows(
        "insert into push_subscriptions (user_id, endpoint, p256dh, auth, created_at) values (?, ?, ?, ?, ?)",
        shipperId,
        endpoint,
        subscription.keys.p256dh,
        subscription.keys.auth,
        Date.now(),
      );
    const res = said(await shipper.post("/api/push/test", { title: "Test", message: "Hello" }));
    expect(res.json).toEqual({ sent: 0, total: 2, removed: 2 });
    expect(await endpoints()).toEqual([]);
    await noSecret();
  });
});

describe("the operator's configuration", () => {
  test("SANDBOX_ORIGINS lists origins, nothing else; BOARD_ALLOW_PRIVATE_URLS stops the start naming its replacement", () => {
    expect(sandboxOriginsFromEnv({})).toEqual([]);
    expect(
      sandboxOriginsFromEnv({ SANDBOX_ORIGINS: " http://10.0.0.7:8080, https://proxy.lan/ ,http://10.0.0.7:8080" }),
    ).toEqual(["http://10.0.0.7:8080", "https://proxy.lan"]);
    for (const bad of ["10.0.0.7:8080", "http://10.0.0.7:8080/feed", "http://u@10.0.0.7", "*"])
      expect(() => sandboxOriginsFromEnv({ SANDBOX_ORIGINS: bad })).toThrow(/^SANDBOX_ORIGINS must list origins/);
    expect(() => sandboxOriginsFromEnv({ BOARD_ALLOW_PRIVATE_URLS: "1" })).toThrow(/SANDBOX_ORIGINS/);
  });

  test("WEB_PUSH_HOSTS replaces the push services' list; WEB_PUSH_SANDBOX_URL is one origin", () => {
    expect(webPushHostsFromEnv({})).toContain("fcm.googleapis.com");
    expect(webPushHostsFromEnv({ WEB_PUSH_HOSTS: "push.example.test, *.Push.Apple.com" })).toEqual([
      "push.example.test",
      "*.push.apple.com",
    ]);
    expect(() => webPushHostsFromEnv({ WEB_PUSH_HOSTS: "https://fcm.googleapis.com" })).toThrow(/^WEB_PUSH_HOSTS/);
    const only = notifiersFromEnv({ WEB_PUSH_HOSTS: "push.example.test" }, { vapidKeyFile: null });
    expect(only.acceptsPushEndpoint("https://push.example.test/e2e/1")).toBe(true);
    expect(only.acceptsPushEndpoint("https://fcm.googleapis.com/fcm/send/1")).toBe(false);
    expect(only.acceptsPushEndpoint(`https://127.0.0.1:${P}/push/1`)).toBe(false);
    const withSandbox = notifiersFromEnv({ WEB_PUSH_SANDBOX_URL: `https://127.0.0.1:${P}` }, { vapidKeyFile: null });
    expect(withSandbox.acceptsPushEndpoint(`https://127.0.0.1:${P}/push/1`)).toBe(true);
    expect(withSandbox.acceptsPushEndpoint(`https://127.0.0.1:${P + 1}/push/1`)).toBe(false);
    expect(() => notifiersFromEnv({ WEB_PUSH_SANDBOX_URL: "loopback" }, { vapidKeyFile: null })).toThrow(
      /^WEB_PUSH_SANDBOX_URL/,
    );
  });
});
