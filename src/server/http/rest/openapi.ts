// The OpenAPI 3.1 document of the REST API, generated from the same procedure metadata and zod schemas as the REST
// adapter (routes.ts), so what is documented is what answers. The few routes outside the adapter (uploads, files,
// redirects, signed webhooks, live updates) are declared by hand below; a test checks that every `/api` route the
// server registers appears here.
import { z } from "zod";
import { API_SCOPES, type TApiScope } from "../../../shared/api-scopes";
import { SESSION_COOKIE } from "../../../shared/constants";
import * as common from "../../../shared/schemas/answers/common";
import { ZVerificationFile, ZVerifiedBadge } from "../../../shared/schemas/answers/verification";
import { ZPublicUser, ZUserAnswer } from "../../../shared/schemas/auth";
import { ZPositionsResult, ZTrack, ZTrackPoint, ZTripAlert } from "../../../shared/schemas/tracking";
import { WHATSAPP_WEB_INBOUND_PATH } from "../../bots/whatsapp/web-inbound";
import { LB123_CALLBACK_PATH } from "../../integrations/boards/loadboard123-oauth";
import { TOKEN_REQUESTS_PER_MINUTE } from "../../modules/tokens/tokens";
import { REST_ROUTES, type TRestEndpoint } from "./routes";

type TJson = Record<string, unknown>;
type TOperation = TJson;

/** Schemas shown once under `components.schemas` and referred to by name. */
const shared: Record<string, z.ZodType> = {
  PublicUser: ZPublicUser,
  UserAnswer: ZUserAnswer,
  Track: ZTrack,
  TrackPoint: ZTrackPoint,
  TripAlert: ZTripAlert,
  PositionsResult: ZPositionsResult,
  VerificationFile: ZVerificationFile,
  VerifiedBadge: ZVerifiedBadge,
  ...Object.fromEntries(
    (Object.entries(common) as [string, unknown][])
      .filter((e): e is [string, z.ZodType] => e[0].startsWith("Z") && e[1] instanceof z.ZodType)
      .map(([name, schema]) => [name.slice(1), schema]),
  ),
};
const registry = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(shared)) registry.add(schema, { id });

const ERROR_STATUSES = {
  400: "Invalid input: `issues` names each field",
  401: "Not signed in, or the token is unknown, expired or revoked",
  403: "Not allowed: a token without the route's scope, a token on a cookie-only route, or a cross-site write",
  404: "Not found, or not yours",
  409: "In conflict with the record's current state",
  429: "Too many requests: wait for the number of seconds in `Retry-After`",
} as const;

const ZErrorBody = z.object({
  message: z.string().meta({ description: "What went wrong, in the caller's language (Accept-Language or account)" }),
  code: z.string().meta({ description: "The error's kind: BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, …" }),
  messageId: z.string().optional().meta({ description: "A stable id of the message, to key on" }),
  issues: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .meta({ description: "One entry per invalid field, `path` naming it (`pickupDate`, `items.0.sku`)" }),
});

const SESSION_DESCRIPTION = `The browser's session cookie (\`${SESSION_COOKIE}\`), set by signing in. A write (POST, PUT, DELETE) sent with the cookie must come from this site: its \`Origin\` header (or, without one, \`Sec-Fetch-Site\`) must name this host, or it is refused with 403. Cookie sessions are not limited by token scopes.`;
const BEARER_DESCRIPTION = `A personal API token (\`Authorization: Bearer mt_…\`), created on /settings (API tokens) by a signed-in user and shown once. A token may call the routes of its scopes only (403 naming the missing scope otherwise), never the cookie-only routes (signing in, token management), and at most ${TOKEN_REQUESTS_PER_MINUTE} requests a minute (429 with \`Retry-After\` beyond). Bearer calls without the session cookie are exempt from the cross-site rule.`;

/** Converts one schema, moving the shared schemas it uses into `components` and pointing its references there. */
const converter = (components: Record<string, unknown>) => (schema: z.ZodType, io: "input" | "output") => {
  const out = z.toJSONSchema(schema, { metadata: registry, unrepresentable: "any", io }) as TJson;
  const defs = (out.$defs ?? {}) as Record<string, TJson>;
  delete out.$defs;
  delete out.$schema;
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (v && typeof v === "object") {
      const o: TJson = {};
      for (const [k, x] of Object.entries(v))
        o[k] = k === "$ref" && typeof x === "string" ? x.replace("#/$defs/", "#/components/schemas/") : fix(x);
      return o;
    }
    return v;
  };
  for (const [id, def] of Object.entries(defs)) {
    // A shared schema converted for input and for output may differ (defaults); the output's stands.
    if (!(id in components) || io === "output") components[id] = fix(def);
  }
  // A shared schema converted on its own comes back as a reference to itself.
  return fix(out) as TJson;
};

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

const unwrapSchema = (schema: z.ZodType): z.ZodType => {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault)
    s = s.unwrap() as z.ZodType;
  return s;
};

/** The REST answer's schema: the procedure's output, or the part of it the route declares. */
const answerSchema = (route: TRestEndpoint): z.ZodType | null => {
  const output = route.outputSchema;
  if (!output) return null;
  const a = route.answerKind;
  if (a?.kind === "field") {
    const shape = unwrapSchema(output);
    return shape instanceof z.ZodObject ? ((shape.shape as Record<string, z.ZodType>)[a.name] ?? null) : null;
  }
  if (a?.kind === "wrap")
    return z.object({ [a.name]: a.nullIsUnauthorized && output instanceof z.ZodNullable ? output.unwrap() : output });
  if (output instanceof z.ZodVoid || output instanceof z.ZodUndefined) return common.ZOkAnswer;
  return output;
};

const errorResponses = (statuses: readonly (keyof typeof ERROR_STATUSES)[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/Error${s}` }]));

const securityOf = (scope: TRestEndpoint["scope"]) =>
  scope === "public" ? [] : scope === "session" ? [{ session: [] }] : [{ session: [] }, { bearer: [scope] }];

const scopeNote = (scope: TRestEndpoint["scope"]) =>
  scope === "public"
    ? "Open to anyone; a signed-in caller is recognised."
    : scope === "session"
      ? "Browser session only: API tokens are refused."
      : `Token scope: \`${scope}\`.`;

const ALL_ERRORS = [400, 401, 403, 404, 409, 429] as const;

/** An operation generated from a procedure's REST metadata and schemas. */
const generatedOperation = (route: TRestEndpoint, convert: ReturnType<typeof converter>, operationId: string) => {
  const pathInputs = new Set(route.params.map((p) => p.input));
  const input = route.inputSchema ? convert(route.inputSchema, "input") : null;
  const props = (input?.properties ?? {}) as Record<string, TJson>;
  const required = new Set((input?.required ?? []) as string[]);
  const parameters: TJson[] = route.params.map((p) => ({
    name: p.name,
    in: "path",
    required: true,
    schema: p.type === "id" ? { type: "integer", minimum: 1 } : { type: "string" },
    ...(p.name !== p.input ? { description: `The ${p.input}` } : {}),
  }));
  let requestBody: TJson | undefined;
  const rest = Object.entries(props).filter(([k]) => !pathInputs.has(k));
  if (route.method === "GET") {
    for (const [name, schema] of rest)
      parameters.push({ name, in: "query", required: required.has(name), schema, style: "form", explode: false });
  } else if (rest.length) {
    const req = [...required].filter((k) => !pathInputs.has(k));
    requestBody = {
      required: req.length > 0,
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: Object.fromEntries(rest),
            ...(req.length ? { required: req } : {}),
            ...(input?.additionalProperties === false ? { additionalProperties: false } : {}),
          },
        },
      },
    };
  }
  const answer = answerSchema(route);
  const op: TOperation = {
    operationId,
    summary: route.summary,
    description: scopeNote(route.scope),
    tags: route.tags,
    security: securityOf(route.scope),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(route.status)]: {
        description: route.status === 201 ? "Created" : route.status === 202 ? "Accepted" : "OK",
        content: { "application/json": { schema: answer ? convert(answer, "output") : {} } },
      },
      ...errorResponses(ALL_ERRORS),
    },
  };
  if (route.scope !== "public" && route.scope !== "session") op["x-scope"] = route.scope;
  return op;
};

type THandRoute = {
  method: "GET" | "POST";
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: TJson[];
  parameters?: TJson[];
  requestBody?: TJson;
  responses: TJson;
};

const jsonContent = (schema: TJson) => ({ "application/json": { schema } });
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const idParam = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "integer", minimum: 1 },
});
const received = { type: "object", additionalProperties: true };
const signedBody = (what: string) => ({
  required: true,
  description: `${what}, exactly as sent: the signature covers the raw bytes.`,
  content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
});

/** The routes served outside the generated adapter, as they answer. */
const HAND_ROUTES: THandRoute[] = [
  {
    method: "GET",
    path: "/api/health",
    operationId: "health",
    summary: "Whether the server is up",
    description: "Open to anyone.",
    tags: ["Platform"],
    security: [],
    responses: {
      "200": { description: "Up", content: jsonContent(ref("OkAnswer")) },
    },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    operationId: "openapi",
    summary: "This document",
    description: "Open to anyone.",
    tags: ["Platform"],
    security: [],
    responses: { "200": { description: "The OpenAPI 3.1 document", content: jsonContent({ type: "object" }) } },
  },
  {
    method: "GET",
    path: "/api/docs",
    operationId: "apiDocs",
    summary: "The API reference page",
    description: "Open to anyone: this document, rendered.",
    tags: ["Platform"],
    security: [],
    responses: { "200": { description: "An HTML page", content: { "text/html": { schema: { type: "string" } } } } },
  },
  {
    method: "GET",
    path: "/api/login",
    operationId: "oidcLogin",
    summary: "Sign in with the identity provider (single sign-on)",
    description: "A redirect to the provider's sign-in page; 404 where single sign-on is not set up.",
    tags: ["Auth"],
    security: [],
    responses: { "302": { description: "To the identity provider" }, ...errorResponses([404, 429]) },
  },
  {
    method: "GET",
    path: "/api/auth/callback",
    operationId: "oidcCallback",
    summary: "The identity provider's return after sign-in",
    description: "Sets the session cookie and redirects into the app.",
    tags: ["Auth"],
    security: [],
    parameters: [
      { name: "code", in: "query", required: false, schema: { type: "string" } },
      { name: "state", in: "query", required: false, schema: { type: "string" } },
    ],
    responses: { "302": { description: "Into the app, signed in" }, ...errorResponses([400, 404]) },
  },
  {
    method: "GET",
    path: "/api/logout",
    operationId: "logoutPage",
    summary: "A page asking to confirm signing out",
    description: "Signing out is a POST, so a link on another site cannot sign anyone out.",
    tags: ["Auth"],
    security: [],
    responses: { "200": { description: "An HTML page", content: { "text/html": { schema: { type: "string" } } } } },
  },
  {
    method: "POST",
    path: "/api/logout",
    operationId: "logout",
    summary: "Sign out",
    description: "Ends the cookie session and redirects home.",
    tags: ["Auth"],
    security: [{ session: [] }],
    responses: { "302": { description: "Home, signed out" }, ...errorResponses([403]) },
  },
  {
    method: "GET",
    path: LB123_CALLBACK_PATH,
    operationId: "loadboard123Callback",
    summary: "123Loadboard's return after the user allowed access",
    description: "Saves the board's tokens for the signed-in user and redirects to the boards page.",
    tags: ["Boards"],
    security: [{ session: [] }],
    parameters: [
      { name: "code", in: "query", required: false, schema: { type: "string" } },
      { name: "state", in: "query", required: false, schema: { type: "string" } },
    ],
    responses: { "302": { description: "To the boards page" }, ...errorResponses([400, 401]) },
  },
  {
    method: "POST",
    path: "/api/telegram/webhook",
    operationId: "telegramWebhook",
    summary: "Telegram's updates for the bot (webhook mode)",
    description: "Checked with the secret token header Telegram sends; 404 where the bot runs by polling.",
    tags: ["Webhooks in"],
    security: [],
    requestBody: signedBody("A Telegram update"),
    responses: { "200": { description: "Taken" }, ...errorResponses([401, 404]) },
  },
  {
    method: "GET",
    path: "/api/whatsapp/webhook",
    operationId: "whatsappVerify",
    summary: "Meta's subscription check for the WhatsApp webhook",
    description: "Answers `hub.challenge` when `hub.verify_token` matches.",
    tags: ["Webhooks in"],
    security: [],
    parameters: [
      { name: "hub.mode", in: "query", required: true, schema: { type: "string" } },
      { name: "hub.verify_token", in: "query", required: true, schema: { type: "string" } },
      { name: "hub.challenge", in: "query", required: true, schema: { type: "string" } },
    ],
    responses: {
      "200": { description: "The challenge", content: { "text/plain": { schema: { type: "string" } } } },
      ...errorResponses([403, 404]),
    },
  },
  {
    method: "POST",
    path: "/api/whatsapp/webhook",
    operationId: "whatsappWebhook",
    summary: "Inbound WhatsApp messages (Cloud API)",
    description: "Signed by Meta (`X-Hub-Signature-256`, HMAC-SHA256 of the raw body with the app secret).",
    tags: ["Webhooks in"],
    security: [],
    requestBody: signedBody("Meta's webhook event"),
    responses: { "200": { description: "Taken", content: jsonContent(received) }, ...errorResponses([401, 404]) },
  },
  {
    method: "POST",
    path: WHATSAPP_WEB_INBOUND_PATH,
    operationId: "whatsappWebInbound",
    summary: "Inbound WhatsApp messages from the WhatsApp Web bridge",
    description: "Signed by the bridge with the secret it shares with the server.",
    tags: ["Webhooks in"],
    security: [],
    requestBody: signedBody("The bridge's message"),
    responses: {
      "200": { description: "Taken", content: jsonContent(ref("OkAnswer")) },
      ...errorResponses([400, 401, 404]),
    },
  },
  {
    method: "POST",
    path: "/api/webhooks/stripe",
    operationId: "stripeWebhook",
    summary: "Stripe's payment events",
    description: "Signed by Stripe (`Stripe-Signature`); 503 asks Stripe to send an event again later.",
    tags: ["Webhooks in"],
    security: [],
    requestBody: signedBody("A Stripe event"),
    responses: {
      "200": { description: "Applied or ignored", content: jsonContent(received) },
      "503": { description: "Not placed yet: Stripe retries", content: jsonContent(received) },
      ...errorResponses([400, 404]),
    },
  },
  {
    method: "POST",
    path: "/api/webhooks/chapa",
    operationId: "chapaWebhook",
    summary: "Chapa's payment events",
    description: "Signed by Chapa; every payment is confirmed with Chapa's verify call before it counts.",
    tags: ["Webhooks in"],
    security: [],
    requestBody: signedBody("A Chapa event"),
    responses: { "200": { description: "Applied", content: jsonContent(received) }, ...errorResponses([400, 404]) },
  },
  {
    method: "GET",
    path: "/api/webhooks/chapa/callback",
    operationId: "chapaCallback",
    summary: "Chapa's callback after a checkout",
    description: "Confirmed with Chapa's verify call.",
    tags: ["Webhooks in"],
    security: [],
    parameters: [
      { name: "trx_ref", in: "query", required: false, schema: { type: "string" } },
      { name: "tx_ref", in: "query", required: false, schema: { type: "string" } },
    ],
    responses: { "200": { description: "Confirmed", content: jsonContent(received) }, ...errorResponses([400, 404]) },
  },
  {
    method: "POST",
    path: "/api/ecommerce/webhooks/{integrationId}",
    operationId: "storeWebhook",
    summary: "A store's order events (Shopify orders/create and orders/updated)",
    description: "One address per store integration, signed by the store (`X-Shopify-Hmac-Sha256`).",
    tags: ["Webhooks in"],
    security: [],
    parameters: [idParam("integrationId", "The store integration")],
    requestBody: signedBody("The store's order"),
    responses: { "200": { description: "Taken", content: jsonContent(received) }, ...errorResponses([401, 404]) },
  },
  {
    method: "POST",
    path: "/api/loads/{id}/documents",
    operationId: "documents.upload",
    summary: "Attach a document to a load (bill of lading, proof of delivery, photo)",
    description:
      "Browser session only. A multipart form of at most 10 MB; images are re-encoded without their metadata.",
    tags: ["Documents"],
    security: [{ session: [] }],
    parameters: [idParam("id", "The load")],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              type: { type: "string", enum: ["bol", "pod", "photo", "other"] },
              file: { type: "string", contentMediaType: "application/octet-stream" },
            },
            required: ["type", "file"],
          },
        },
      },
    },
    responses: {
      "201": { description: "Stored", content: jsonContent(ref("LoadDocument")) },
      ...errorResponses([400, 401, 403, 404, 429]),
      "413": { description: "Larger than 10 MB", content: jsonContent({ $ref: "#/components/schemas/Error" }) },
    },
  },
  {
    method: "GET",
    path: "/api/documents/{id}",
    operationId: "documents.open",
    summary: "A load document's file",
    description: "Browser session only. The stored file with its type, for the load's two parties.",
    tags: ["Documents"],
    security: [{ session: [] }],
    parameters: [idParam("id", "The document")],
    responses: {
      "200": {
        description: "The file",
        content: {
          "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
        },
      },
      ...errorResponses([400, 401, 404]),
    },
  },
  {
    method: "POST",
    path: "/api/verification/files",
    operationId: "verification.upload",
    summary: "Upload a file for your next verification submission",
    description:
      "Browser session only. A multipart form of at most 10 MB (JPEG, PNG, WebP or PDF); images are re-encoded without their metadata. Readable by you and operators only.",
    tags: ["Verification"],
    security: [{ session: [] }],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              kind: { type: "string", enum: ["trade_licence", "tin", "mc_dot", "insurance", "drivers_licence"] },
              file: { type: "string", contentMediaType: "application/octet-stream" },
            },
            required: ["kind", "file"],
          },
        },
      },
    },
    responses: {
      "201": { description: "Stored", content: jsonContent(ref("VerificationFile")) },
      ...errorResponses([400, 401, 429]),
      "413": { description: "Larger than 10 MB", content: jsonContent({ $ref: "#/components/schemas/Error" }) },
    },
  },
  {
    method: "GET",
    path: "/api/verification/files/{id}",
    operationId: "verification.open",
    summary: "A verification file",
    description: "Browser session only. The stored file with its type, for its owner and operators.",
    tags: ["Verification"],
    security: [{ session: [] }],
    parameters: [idParam("id", "The verification file")],
    responses: {
      "200": {
        description: "The file",
        content: {
          "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
        },
      },
      ...errorResponses([400, 401, 404]),
    },
  },
  {
    method: "GET",
    path: "/api/loads/{id}/rate-confirmation.pdf",
    operationId: "rateConfirmations.pdf",
    summary: "An awarded load's rate confirmation as a PDF",
    description:
      "Browser session only. For the load's shipper and awarded driver, in the caller's language, calendar and time zone; 409 before the award.",
    tags: ["Trips"],
    security: [{ session: [] }],
    parameters: [idParam("id", "The load")],
    responses: {
      "200": {
        description: "The PDF",
        content: { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } },
      },
      ...errorResponses([400, 401, 404, 409]),
    },
  },
  {
    method: "GET",
    path: "/api/payments/{id}/receipt.pdf",
    operationId: "payments.receipt",
    summary: "A freight payment's receipt as a PDF",
    description:
      "Browser session only. For the payment's shipper and driver, in the caller's language, calendar and time zone: parties, load, amounts, state and history, provider references.",
    tags: ["Payments"],
    security: [{ session: [] }],
    parameters: [idParam("id", "The payment")],
    responses: {
      "200": {
        description: "The PDF",
        content: { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } },
      },
      ...errorResponses([400, 401, 404]),
    },
  },
  {
    method: "GET",
    path: "/api/live",
    operationId: "live",
    summary: "Live updates for the signed-in user (server-sent events)",
    description: "Browser session only. An event stream of what changed for the user (bids, messages, positions).",
    tags: ["Notifications"],
    security: [{ session: [] }],
    responses: {
      "200": { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
      ...errorResponses([401]),
    },
  },
];

const TAG_DESCRIPTIONS: Record<string, string> = {
  Auth: "Signing up, in and out; password reset.",
  Account: "The signed-in account and its settings.",
  Platform: "Public figures, exchange rates and this API's own documents.",
  Loads: "Posting, finding and following loads.",
  Bids: "Drivers' bids and shippers' answers.",
  Trips: "A load's trip: pickup, delivery, proof, positions, rating.",
  Drivers: "A driver's position, availability and trips.",
  Messages: "A load's conversation between shipper and driver.",
  Documents: "Bills of lading, proofs of delivery and photos on a load.",
  Verification: "Verification of a business (trade licence, TIN, MC/DOT, insurance) and its review by operators.",
  Places: "Place search.",
  Shipping: "Parcel rates, tracking and saved shipments.",
  Notifications: "In-app notifications, push and messaging settings.",
  Boards: "External load boards, lanes and their syncs.",
  Stores: "Store integrations and their orders.",
  Billing: "Subscription, checkout and payments.",
  Tokens: "Personal API tokens (browser session only).",
  Dashboard: "The signed-in user's home figures.",
  "Webhooks in": "Signed calls from outside services.",
  Development: "Demo-only helpers.",
};

/** The OpenAPI 3.1 document for a server at `publicUrl` (the configured public address, or the local one). */
export const buildOpenApiDocument = (publicUrl: string, routes: TRestEndpoint[] = REST_ROUTES) => {
  const components: Record<string, unknown> = {};
  const convert = converter(components);
  const paths: Record<string, Record<string, TOperation>> = {};
  const ids = new Map<string, number>();
  for (const route of routes) {
    const n = (ids.get(route.procedure) ?? 0) + 1;
    ids.set(route.procedure, n);
    const operationId = n === 1 ? route.procedure : `${route.procedure}.${n}`;
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = generatedOperation(route, convert, operationId);
  }
  for (const { method, path, ...op } of HAND_ROUTES) {
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = op;
  }
  const tags = [
    ...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags as string[]))),
  ];
  return {
    openapi: "3.1.0",
    info: {
      title: "MyTess API",
      version: "1",
      summary: "The freight marketplace's REST API: loads, bids, trips, tracking and the rest.",
      description: `Every route answers JSON. Errors are \`{ message, code, messageId?, issues? }\` in the caller's language. Call with a personal API token (\`Authorization: Bearer mt_…\`) within its scopes, or from the browser with the session cookie.`,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: publicUrl.replace(/\/+$/, "") }],
    tags: tags.sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: {
        Error: convert(ZErrorBody, "output"),
        ...Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `Error${status}`,
          { description, content: jsonContent({ $ref: "#/components/schemas/Error" }) },
        ]),
      ),
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: SESSION_DESCRIPTION },
        bearer: { type: "http", scheme: "bearer", description: BEARER_DESCRIPTION },
      },
    },
    "x-scopes": Object.fromEntries(API_SCOPES.map((s: TApiScope) => [s, s])),
  };
};
