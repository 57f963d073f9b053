import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_SCOPES } from "../../../shared/api-scopes";
import { createClient, createTestApp, type TTestApp } from "../../testing";
import type { buildOpenApiDocument } from "./openapi";
import { REST_ROUTES } from "./routes";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(120_000);

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TDoc = ReturnType<typeof buildOpenApiDocument> & { components: { schemas: Record<string, unknown> } };
type TOp = Record<string, unknown> & { security: Record<string, string[]>[]; responses: Record<string, unknown> };

const ROOT = join(import.meta.dir, "..", "..", "..", "..");
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const fetchDoc = async () => {
  const res = await createClient(t, "10.91.0.1").get("/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return res.json as TDoc;
};

describe("GET /api/openapi.json", () => {
  test("every procedure behind a REST route has an output schema", () => {
    expect(REST_ROUTES.filter((r) => !r.outputSchema).map((r) => `${r.method} ${r.path} (${r.procedure})`)).toEqual([]);
  });

  test("an OpenAPI 3.1 document: every generated route with its parameters, body, answer, errors and auth", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "http://localhost:3000" }]);
    for (const r of REST_ROUTES) {
      const op = (doc.paths as Record<string, Record<string, TOp>>)[r.path.replace(/:(\w+)/g, "{$1}")]?.[
        r.method.toLowerCase()
      ];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op!.summary).toBe(r.summary);
      expect(op!.tags).toEqual(r.tags);
      for (const s of ["400", "401", "403", "404", "409", "429"])
        expect(op!.responses[s]).toEqual({ $ref: `#/components/responses/Error${s}` });
      expect(op!.responses[String(r.status)]).toBeDefined();
      if (r.scope === "public") expect(op!.security).toEqual([]);
      else if (r.scope === "session") expect(op!.security).toEqual([{ session: [] }]);
      else expect(op!.security).toEqual([{ session: [] }, { bearer: [r.scope] }]);
    }
    // One route read closely: the board's page answers its items, filters are query parameters.
    const board = doc.paths["/api/loads"]!.get as TOp & { parameters: { name: string; in: string }[] };
    expect(board.parameters.map((p) => `${p.in}:${p.name}`)).toContain("query:radius");
    expect(board.responses["200"]).toMatchObject({
      content: { "application/json": { schema: { type: "array", items: { type: "object" } } } },
    });
    const bid = doc.paths["/api/loads/{id}/bids"]!.post as TOp & { parameters: unknown[]; requestBody: unknown };
    expect(bid.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 }, description: "The loadId" },
    ]);
    expect(bid.requestBody).toMatchObject({
      required: true,
      content: { "application/json": { schema: { required: expect.arrayContaining(["amount"]) } } },
    });
    expect(JSON.stringify(bid.requestBody)).not.toContain('"loadId"');
    expect(doc.components.schemas.Error).toMatchObject({
      type: "object",
      required: ["message", "code"],
      properties: { message: {}, code: {}, messageId: {}, issues: { type: "array" } },
    });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: "apiKey", in: "cookie" });
    // Shared schemas are components, referred to by name.
    expect(doc.components.schemas.Load).toMatchObject({ type: "object" });
    expect(JSON.stringify(doc.paths["/api/loads/{id}/pickup"])).toContain('"#/components/schemas/Load"');
    expect(new Set(Object.keys(doc["x-scopes"]))).toEqual(new Set(API_SCOPES));
  });

  test("every /api route the server answers is in the document", async () => {
    const doc = await fetchDoc();
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        METHODS.filter((m) => m in ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const served = t.app.routes
      .filter((r) => r.path.startsWith("/api/") && r.path !== "/api/*")
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(served.length).toBeGreaterThan(REST_ROUTES.length);
    expect(served.filter((s) => !documented.has(s))).toEqual([]);
    expect([...documented].filter((d) => !served.includes(d))).toEqual([]);
  });

  test("valid under Redocly's recommended rules (redocly.yaml), offline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    try {
      const file = join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(await fetchDoc()));
      const proc = Bun.spawn(
        [
          join(ROOT, "node_modules/.bin/redocly"),
          "lint",
          file,
          "--config",
          join(ROOT, "redocly.yaml"),
          "--format",
          "stylish",
        ],
        {
          cwd: ROOT,
          stdout: "pipe",
          stderr: "pipe",
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      );
      const [out, err, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      const report = `${out}\n${err}`;
      expect(report).not.toMatch(/\b(error|warning)\b {2,}/);
      expect(code, report).toBe(0);
      expect(report).toContain("Woohoo! Your API description is valid.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("GET /api/docs", () => {
  test("the reference page loads the self-hosted renderer and the document from our origin, under the site's CSP", async () => {
    const anon = createClient(t, "10.91.0.2");
    const page = await anon.get("/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    const html = page.text;
    const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]!);
    expect(scripts).toEqual(["/api-docs/scalar.js", "/api-docs/init.js"]);
    // No inline script (the CSP would refuse it) and nothing from another origin.
    expect(html.replace(/<script src="[^"]+"><\/script>/g, "")).not.toContain("<script");
    for (const src of scripts) {
      const res = await anon.get(src);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("javascript");
    }
    const init = (await anon.get("/api-docs/init.js")).text;
    expect(init).toContain('url: "/api/openapi.json"');
    expect(init).toContain("withDefaultFonts: false");
  });
});
