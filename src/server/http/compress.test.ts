import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

describe("compressed answers", () => {
  test("a page of loads goes brotli or gzip as the client asks, with Vary; small answers go plain", async () => {
    const t = await createTestApp();
    const shipper = createClient(t);
    await registerUser(shipper, "shipper");
    for (let i = 0; i < 6; i++) {
      const res = await shipper.post("/api/loads", loadInput({ title: `Cement lot ${i}`, budgetAmount: 900 + i }));
      expect(res.status).toBe(201);
    }
    const ask = (encoding: string) =>
      t.app.handle(
        new Request("http://localhost/api/loads", { headers: { Cookie: shipper.cookie, "Accept-Encoding": encoding } }),
      );
    const plain = await ask("identity");
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toContain("Accept-Encoding");

    const br = await ask("gzip, deflate, br");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toContain("Accept-Encoding");
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(brBytes.byteLength).toBeLessThan(text.length / 3);
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);

    const gz = await ask("gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(text);

    const small = await t.app.handle(
      new Request("http://localhost/api/health", { headers: { "Accept-Encoding": "br" } }),
    );
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.json()).toEqual({ ok: true });
  }, 30_000);
});

describe("the built app", () => {
  let dir: string;
  const app = async () => (await createTestApp({ webDist: dir })).app;
  const html = `<!doctype html><title>MyTess</title>${"<p>shell</p>".repeat(200)}`;
  const js = `console.log(${JSON.stringify("x".repeat(4000))});`;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mytess-static-"));
    writeFileSync(join(dir, "index.html"), html);
    writeFileSync(join(dir, "index.html.br"), brotliCompressSync(html));
    writeFileSync(join(dir, "index.html.gz"), gzipSync(html));
    writeFileSync(join(dir, "routes.json"), JSON.stringify(["/", "/loads", "/loads/$id", "/landing"]));
    Bun.spawnSync(["mkdir", "-p", join(dir, "assets")]);
    writeFileSync(join(dir, "assets", "main.js"), js);
    writeFileSync(join(dir, "assets", "main.js.br"), brotliCompressSync(js));
    writeFileSync(join(dir, "assets", "main.js.gz"), gzipSync(js));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("built files go as their precompressed copy the browser accepts", async () => {
    const a = await app();
    const br = await a.handle(
      new Request("http://localhost/assets/main.js", { headers: { "Accept-Encoding": "gzip, br" } }),
    );
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("content-type")).toContain("javascript");
    expect(br.headers.get("cache-control")).toContain("immutable");
    expect(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())).toString()).toBe(js);
    const gz = await a.handle(
      new Request("http://localhost/assets/main.js", { headers: { "Accept-Encoding": "gzip" } }),
    );
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const none = await a.handle(new Request("http://localhost/assets/main.js", { headers: { "Accept-Encoding": "" } }));
    expect(none.headers.get("content-encoding")).toBeNull();
    expect(await none.text()).toBe(js);
  });

  test("the app's routes answer 200, unknown paths 404 with the same shell", async () => {
    const a = await app();
    for (const path of ["/", "/loads", "/loads/42", "/landing?x=1"]) {
      const res = await a.handle(new Request(`http://localhost${path}`));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(html);
    }
    for (const path of ["/nope", "/loads/42/extra", "/landingx"]) {
      const res = await a.handle(new Request(`http://localhost${path}`, { headers: { "Accept-Encoding": "br" } }));
      expect(res.status).toBe(404);
      expect(brotliDecompressSync(new Uint8Array(await res.arrayBuffer())).toString()).toBe(html);
    }
  });
});

describe("the page's chunks asked for up front", () => {
  test("index.html names the route's chunks and the visitor's catalogs as modulepreloads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mytess-preload-"));
    try {
      writeFileSync(
        join(dir, "index.html"),
        "<!doctype html><html><head><title>MyTess</title></head><body></body></html>",
      );
      writeFileSync(join(dir, "routes.json"), JSON.stringify(["/landing", "/loads", "/loads/$id"]));
      writeFileSync(
        join(dir, "preload.json"),
        JSON.stringify({
          routes: { "/landing": ["assets/landing-1.js"], "/loads": ["assets/loads-1.js", "assets/load-card-1.js"] },
          authed: ["assets/_authed-1.js"],
          authedPaths: ["/loads"],
          shellCatalogs: { en: "assets/en-1.js", am: "assets/am-1.js", om: "assets/om-1.js" },
          appCatalogs: { en: "assets/app-en-1.js", am: "assets/app-am-1.js", om: "assets/app-om-1.js" },
        }),
      );
      const { app } = await createTestApp({ webDist: dir });
      const preloads = async (path: string, headers: Record<string, string> = {}) => {
        const res = await app.handle(new Request(`http://localhost${path}`, { headers }));
        return {
          status: res.status,
          files: [...(await res.text()).matchAll(/modulepreload" crossorigin href="\/([^"]+)"/g)].map((m) => m[1]),
        };
      };
      expect(await preloads("/landing", { "Accept-Language": "am-ET,am;q=0.9" })).toEqual({
        status: 200,
        files: ["assets/am-1.js", "assets/landing-1.js"],
      });
      // The language the app last used wins over the browser's; a signed-in visitor's screen gets its messages too.
      expect(
        await preloads("/loads", { Cookie: "mytess_lang=om; mytess_session=abc", "Accept-Language": "en" }),
      ).toEqual({
        status: 200,
        files: [
          "assets/om-1.js",
          "assets/app-om-1.js",
          "assets/_authed-1.js",
          "assets/loads-1.js",
          "assets/load-card-1.js",
        ],
      });
      expect((await preloads("/nowhere")).status).toBe(404);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
