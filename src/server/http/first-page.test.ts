import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstBoardPage } from "../../shared/board";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser } from "../testing";

// What the first HTML of a page carries: the landing page rendered at build time for signed-out visitors, and a
// signed-in visitor's first answers (static.ts), with a built app made here.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

let dir: string;
const INDEX = `<!doctype html>
<html lang="en">
  <head><title>MyTess</title></head>
  <body>
    <div id="root">
      <div class="splash">Loading...</div>
      <!--/root--></div>
    <script type="module" src="/assets/index.js"></script>
  </body>
</html>`;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mytess-first-page-"));
  writeFileSync(join(dir, "index.html"), INDEX);
  writeFileSync(join(dir, "routes.json"), JSON.stringify(["/", "/loads", "/messaging", "/landing", "/signin"]));
  writeFileSync(
    join(dir, "preload.json"),
    JSON.stringify({
      routes: {},
      authed: [],
      authedPaths: ["/loads", "/messaging"],
      shellCatalogs: { en: "assets/en.js", am: "assets/am.js", om: "assets/om.js" },
      appCatalogs: { en: "assets/app-en.js", am: "assets/app-am.js", om: "assets/app-om.js" },
    }),
  );
  mkdirSync(join(dir, "prerender"));
  for (const [lang, h1] of [
    ["en", "Freight moves faster"],
    ["am", "ጭነት በፍጥነት ይንቀሳቀሳል"],
    ["om", "Fe'umsi saffisaan socha'a"],
  ])
    writeFileSync(join(dir, "prerender", `landing.${lang}.html`), `<main><h1>${h1}</h1></main>`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bootOf = (html: string) => {
  const m = /<script id="mytess-boot" type="application\/json">(.*?)<\/script>/s.exec(html);
  return m ? (JSON.parse(m[1]!) as { path: string; input?: unknown; data: unknown }[]) : null;
};

test("a signed-out visitor gets the landing page itself in their language; a signed-in one the plain shell", async () => {
  const t = await createTestApp({ webDist: dir });
  const anon = createClient(t);
  const am = await anon.get("/landing", { "Accept-Language": "am-ET,am;q=0.9,en;q=0.5" });
  expect(am.status).toBe(200);
  expect(am.text).toContain('<html lang="am"');
  expect(am.text).toContain('<div id="root" data-prerendered="/landing"><main><h1>ጭነት በፍጥነት ይንቀሳቀሳል</h1></main>');
  expect(am.text).not.toContain("Loading...");
  const om = await anon.get("/landing", { Cookie: "mytess_lang=om" });
  expect(om.text).toContain("Fe'umsi saffisaan socha'a");
  // Pages without a rendering keep the splash.
  expect((await anon.get("/signin")).text).toContain("Loading...");

  const user = createClient(t);
  await registerUser(user, "driver");
  const signedIn = await user.get("/landing");
  expect(signedIn.text).toContain("Loading...");
  expect(signedIn.text).not.toContain("data-prerendered");
});

test("a signed-in driver's board arrives with its first answers, private to them; nothing for a visitor", async () => {
  const t = await createTestApp({ webDist: dir });
  const shipper = createClient(t);
  await registerUser(shipper, "shipper");
  // A title that would end the script element if it were not escaped.
  const title = "Cement </script><script>alert(1)</script>";
  expect((await shipper.post("/api/loads", loadInput({ title }))).status).toBe(201);
  const driver = createClient(t);
  const me = await registerUser(driver, "driver", { firstName: "Abebe" });
  expect((await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 })).status).toBe(200);

  const res = await driver.get("/loads");
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("private, no-cache");
  expect(res.text).not.toContain("<script>alert(1)");
  const boot = bootOf(res.text)!;
  expect(boot.map((b) => b.path)).toEqual(["auth.me", "platform.fxRates", "loads.search", "loads.stats"]);
  expect(boot[0]!.data).toMatchObject({ id: me.id, firstName: "Abebe" });
  const search = boot[2]!;
  expect(search.input).toEqual(firstBoardPage({ latitude: 8.95, longitude: 38.76 }));
  // The same answer the app would get by asking.
  const asked = await driver.get(`/trpc/loads.search?input=${encodeURIComponent(JSON.stringify(search.input))}`);
  expect(search.data).toEqual(asked.json.result.data);
  expect(JSON.stringify(search.data)).toContain("Cement </script>");

  // Another page gets the user and rates only; a visitor nothing.
  expect(bootOf((await driver.get("/messaging")).text)?.map((b) => b.path)).toEqual(["auth.me", "platform.fxRates"]);
  const anon = await createClient(t).get("/loads");
  expect(bootOf(anon.text)).toBeNull();
  expect(anon.headers.get("cache-control")).toBe("no-cache");
});
