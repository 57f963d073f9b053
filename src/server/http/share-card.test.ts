import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser } from "../testing";

// A shared load's link shows a card in WhatsApp and Telegram: they read the Open Graph and Twitter tags of the HTML
// without running the app, so the server writes them, in the link's language, with nothing a visitor may not see.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mytess-share-card-"));
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html lang="en"><head><meta name="description" content="MyTess: the freight marketplace" /><title>MyTess</title></head><body><div id="root"><!--/root--></div></body></html>`,
  );
  writeFileSync(join(dir, "routes.json"), JSON.stringify(["/", "/loads/$id", "/about"]));
  writeFileSync(
    join(dir, "preload.json"),
    JSON.stringify({ routes: {}, authed: [], authedPaths: [], shellCatalogs: {}, appCatalogs: {} }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;
const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0;

test("a posted load's link: its title, route, equipment, weight and budget, in the link's language", async () => {
  const t = await createTestApp({ webDist: dir });
  const shipper = createClient(t);
  await registerUser(shipper, "shipper", { firstName: "Selam", lastName: "Bekele", phone: "+251911234567" });
  const made = await shipper.post(
    "/api/loads",
    loadInput({ title: 'Cement <40 t> "bagged"', budgetAmount: 45000, budgetCurrency: "ETB", weight: 22046 }),
  );
  expect(made.status).toBe(201);
  const id = made.json.id as number;
  const visitor = createClient(t, "10.0.0.9");

  const en = await visitor.get(`/loads/${id}`, { "Accept-Language": "en-US,en;q=0.9" });
  expect(en.status).toBe(200);
  expect(meta(en.text, "og:title")).toBe("Cement &lt;40 t&gt; &quot;bagged&quot; · MyTess");
  expect(meta(en.text, "og:description")).toBe(
    "Addis Ababa, Ethiopia → Adama, Ethiopia · Flatbed · 22,046 lbs · Br 45,000.00",
  );
  expect(meta(en.text, "og:url")).toBe(`http://localhost/loads/${id}`);
  expect(meta(en.text, "og:image")).toBe("http://localhost/icon-512.png");
  expect(meta(en.text, "twitter:card")).toBe("summary");
  expect(meta(en.text, "og:locale")).toBe("en_US");
  // One title and one description: index.html's own are replaced, not repeated.
  expect(count(en.text, /<title>/g)).toBe(1);
  expect(count(en.text, /<meta name="description"/g)).toBe(1);
  expect(en.text).toContain("<title>Cement &lt;40 t&gt; &quot;bagged&quot; · MyTess</title>");

  // The link's own language wins over the reader's browser; Amharic readers get kilograms and birr as ብር.
  const am = await visitor.get(`/loads/${id}?lang=am`, { "Accept-Language": "en-US" });
  expect(meta(am.text, "og:description")).toBe(
    "Addis Ababa, Ethiopia → Adama, Ethiopia · ዝርግ ተሳቢ · 10 ቶን · ብር 45,000.00",
  );
  expect(meta(am.text, "og:locale")).toBe("am_ET");
  const om = await visitor.get(`/loads/${id}`, { "Accept-Language": "om-ET,om;q=0.9" });
  expect(meta(om.text, "og:description")).toContain("Konkolaataa diriiraa (flatbed)");

  // Nothing about the shipper: no name, no phone, no account.
  for (const page of [en.text, am.text, om.text]) {
    expect(page).not.toContain("Selam");
    expect(page).not.toContain("Bekele");
    expect(page).not.toContain("911234567");
  }
});

test("a load a visitor may not see, and any other page, get the site's card", async () => {
  const t = await createTestApp({ webDist: dir });
  const shipper = createClient(t);
  await registerUser(shipper, "shipper");
  const made = await shipper.post("/api/loads", loadInput({ title: "Secret transformer move" }));
  const id = made.json.id as number;
  expect((await shipper.post(`/api/loads/${id}/cancel`, { reason: "Plans changed" })).status).toBe(200);
  const visitor = createClient(t, "10.0.0.9");

  for (const path of [`/loads/${id}`, "/loads/999999", "/about", "/"]) {
    const res = await visitor.get(path, { "Accept-Language": "am" });
    expect(res.text).not.toContain("Secret transformer");
    expect(meta(res.text, "og:title")).toBe("MyTess");
    expect(meta(res.text, "og:description")).toBe(
      "ለአሽከርካሪዎችና ለላኪዎች የጭነት ገበያ፦ በአቅራቢያዎ ያሉ ጭነቶችን ያግኙ፣ ጨረታ ያቅርቡ፣ ጉዞውንም ያካሂዱ።",
    );
  }
});
