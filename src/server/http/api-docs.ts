// The API's reference page at /api/docs: Scalar's standalone renderer, served from our own origin (no CDN, no fonts
// from elsewhere), reading the document at /api/openapi.json. The page's scripts are files, so the site's CSP
// (`script-src 'self'`) holds unchanged.
import { dirname, join } from "node:path";
import { buildOpenApiDocument } from "./rest/openapi";

export const API_DOCS_SCRIPT_PATH = "/api-docs/scalar.js";
export const API_DOCS_INIT_PATH = "/api-docs/init.js";

const RENDERER = join(
  dirname(Bun.resolveSync("@scalar/api-reference/package.json", import.meta.dir)),
  "dist/browser/standalone.js",
);

const INIT = `Scalar.createApiReference("#app", {
  url: "/api/openapi.json",
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
});
`;

export const apiDocsPage = () =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>MyTess API reference</title></head><body><div id="app"></div><script src="${API_DOCS_SCRIPT_PATH}"></script><script src="${API_DOCS_INIT_PATH}"></script></body></html>`;

let document: { url: string; body: string } | null = null;
/** The OpenAPI document as JSON, built once per process (the routes do not change while it runs). */
export const openApiJson = (publicUrl: string) => {
  if (document?.url !== publicUrl) document = { url: publicUrl, body: JSON.stringify(buildOpenApiDocument(publicUrl)) };
  return document.body;
};

const script = (body: BodyInit) =>
  new Response(body, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });

export const apiDocsRenderer = () => script(Bun.file(RENDERER));
export const apiDocsInit = () => script(INIT);
