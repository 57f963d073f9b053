// Cold and warm start on a 3G phone: the built app on the real server with demo data, Debian's Chromium through
// Playwright with CDP network throttling (400 ms latency, 400 kbit/s each way) and the CPU slowed 4x. For /landing
// (signed out) and /loads (a signed-in driver) it measures first paint, the main content (the landing hero's
// heading; the board's first load card) and the bytes transferred, the median of 3 runs each, cold (empty cache, no
// service worker) and warm (the same page again in the same browser context).
//   bun run build && bun bench/cold-start.ts [--runs 3]
// Targets for a phone on a slow network: landing main content <= 4 s cold, first load card <= 6 s cold, landing
// transfer <= 200 KB.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BrowserContext, chromium, type Page } from "@playwright/test";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "3" }, detail: { type: "boolean", default: false } },
});
const RUNS = Number(values.runs);
// --detail: every request of each cold run with when it started and finished and its bytes, to see the chain.
const DETAIL = values.detail;
const root = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "mytess-cold-start-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const DRIVER = { email: "abebe@demo.mytess.app", password: "mytess-demo" };

// Demo mode, as `bun run demo` starts it (the launcher starts the emulators and seeds, then the server).
const server = Bun.spawn(["bun", "run", join(root, "src", "demo", "main.ts")], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_PATH: join(dir, "bench.db"),
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "silent",
  },
  stdout: "ignore",
  stderr: "inherit",
});

const waitForServer = async () => {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error("the server did not start within 60 s");
};

type TSample = { firstPaint: number; content: number; kb: number };

/** One navigation under the phone profile; `content` is the time from navigation start until `selector` shows. */
const measure = async (context: BrowserContext, path: string, selector: string, detail = false): Promise<TSample> => {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 400,
    downloadThroughput: (400 * 1024) / 8,
    uploadThroughput: (400 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  let bytes = 0;
  const requests = new Map<string, { url: string; start: number; end?: number; kb?: number }>();
  let t0 = 0;
  cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string }; timestamp: number }) => {
    if (!t0) t0 = e.timestamp;
    requests.set(e.requestId, { url: e.request.url.replace(base, ""), start: e.timestamp });
  });
  cdp.on("Network.loadingFinished", (e: { requestId: string; encodedDataLength: number; timestamp: number }) => {
    bytes += e.encodedDataLength;
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, kb: e.encodedDataLength / 1024 });
  });
  // The main content's element carries elementtiming="main-content": Chromium reports when it was first painted, which
  // a check from the page cannot see while the main thread is busy running the app's code.
  await page.addInitScript(() => {
    const w = window as unknown as { __mainContent: number | null };
    w.__mainContent = null;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[])
        if (e.identifier === "main-content" && w.__mainContent === null) w.__mainContent = e.renderTime || e.startTime;
    }).observe({ type: "element", buffered: true });
  });
  await page.goto(`${base}${path}`, { waitUntil: "commit" });
  await page.waitForSelector(selector, { state: "visible", timeout: 120_000 });
  const shown = await page.evaluate(() => performance.now());
  await page.waitForLoadState("networkidle", { timeout: 120_000 }).catch(() => {});
  const firstPaint = await page.evaluate(
    () =>
      performance.getEntriesByName("first-contentful-paint")[0]?.startTime ??
      performance.getEntriesByName("first-paint")[0]?.startTime ??
      Number.NaN,
  );
  // Seen means painted: the element's own paint when the page reports it, else no earlier than the first paint (an
  // element in the DOM before the stylesheet has arrived is not on the screen yet).
  const painted = await page
    .waitForFunction(() => (window as unknown as { __mainContent: number | null }).__mainContent, undefined, {
      timeout: 5_000,
    })
    .then((h) => h.jsonValue() as Promise<number>)
    .catch(() => null);
  const content = painted ?? Math.max(shown, Number.isNaN(firstPaint) ? 0 : firstPaint);
  await page.close();
  if (detail) {
    for (const r of [...requests.values()].sort((a, b) => a.start - b.start))
      console.log(
        `  ${((r.start - t0) * 1000).toFixed(0).padStart(6)} → ${r.end ? ((r.end - t0) * 1000).toFixed(0).padStart(6) : "     ?"} ms ${(r.kb ?? 0).toFixed(1).padStart(6)} KB ${r.url.slice(0, 90)}`,
      );
    console.log(`  content at ${content.toFixed(0)} ms`);
  }
  return { firstPaint, content, kb: bytes / 1024 };
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const PAGES = {
  landing: { path: "/landing", selector: "h1", signIn: false },
  loads: { path: "/loads", selector: "[data-testid=load-card]", signIn: true },
} as const;

const results: Record<string, number> = {};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
try {
  await waitForServer();
  for (const [name, p] of Object.entries(PAGES)) {
    const cold: TSample[] = [];
    const warm: TSample[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A new context is an empty cache; service workers are blocked so "cold" means the network every time.
      // A phone: its screen (the board shows cards there, the first one on the first screen) and touch.
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        serviceWorkers: "block",
        geolocation: { latitude: 9.01, longitude: 38.76 },
        permissions: ["geolocation"],
      });
      if (p.signIn) {
        const res = await context.request.post(`${base}/api/auth/login`, { data: DRIVER });
        if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`);
      }
      if (DETAIL) console.log(`${p.path} cold, run ${i + 1}:`);
      cold.push(await measure(context, p.path, p.selector, DETAIL));
      warm.push(await measure(context, p.path, p.selector));
      await context.close();
    }
    for (const [kind, samples] of [
      ["cold", cold],
      ["warm", warm],
    ] as const) {
      const fp = median(samples.map((s) => s.firstPaint));
      const content = median(samples.map((s) => s.content));
      const kb = median(samples.map((s) => s.kb));
      console.log(
        `${p.path.padEnd(9)} ${kind}: first paint ${fp.toFixed(0)} ms, main content ${content.toFixed(0)} ms, ${kb.toFixed(0)} KB transferred (median of ${RUNS})`,
      );
      results[`${name}_${kind}_ms`] = Math.round(content);
      results[`${name}_${kind}_first_paint_ms`] = Math.round(fp);
      results[`${name}_${kind}_kb`] = Math.round(kb);
    }
  }
  console.log(
    Object.entries(results)
      .map(([k, v]) => `${k}=${v}`)
      .join(" "),
  );
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
