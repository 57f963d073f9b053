// The REST face of a procedure, declared beside it as tRPC metadata (`.meta(rest(...))`): the HTTP method and path,
// what the OpenAPI document says of it, the API-token scope it needs, and the few ways its answer may differ from the
// procedure's. The REST adapter (http/rest/routes.ts) is built from these and the procedures' input schemas.
import { z } from "zod";
import { API_SCOPES } from "../../shared/api-scopes";

export const REST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Who may call a route: a token scope (cookie sessions and tokens holding that scope), `public` (anyone, signed in or
 * not) or `session` (a browser's cookie session only; signing in, and the token routes, so a token cannot make tokens).
 */
export const ZRestAccess = z.enum([...API_SCOPES, "public", "session"]);
export type TRestAccess = z.infer<typeof ZRestAccess>;

/**
 * A path parameter: the input field it fills, as a positive integer id (a 400 naming the parameter otherwise) or as
 * text. A bare string is an id's input field.
 */
const ZRestParam = z.union([z.string(), z.object({ input: z.string(), type: z.enum(["id", "text"]) })]);

/** How the REST answer differs from the procedure's, when it does. */
const ZRestAnswer = z.discriminatedUnion("kind", [
  /** One field of the procedure's answer (the board's `items`). */
  z.object({ kind: z.literal("field"), name: z.string() }),
  /** The answer under one key; a null answer is a 401 (the signed-in user). */
  z.object({ kind: z.literal("wrap"), name: z.string(), nullIsUnauthorized: z.boolean() }),
]);

export const ZRestRoute = z.object({
  method: z.enum(REST_METHODS),
  path: z.string().regex(/^\/api\/[a-z0-9/:_-]+$/i),
  summary: z.string().min(1),
  tags: z.array(z.string().min(1)).min(1),
  /** The status of a success (200 unless said; 202 for a request taken to be done later). */
  status: z.union([z.literal(200), z.literal(201), z.literal(202)]).optional(),
  scope: ZRestAccess,
  /** Path parameters by name; one not listed fills the input field of its own name as an id. */
  params: z.record(z.string(), ZRestParam).optional(),
  answer: ZRestAnswer.optional(),
  /** Whether a signed-out caller may send a body (sign-up and sign-in); others are refused before it is read. */
  anonymousBody: z.boolean().optional(),
});
export type TRestRoute = z.input<typeof ZRestRoute>;
export type TRestRouteParsed = z.output<typeof ZRestRoute>;

export const ZProcedureMeta = z.object({ rest: z.array(ZRestRoute).optional() });
/** What a procedure may carry as metadata (`initTRPC.meta<TProcedureMeta>()`). */
export type TProcedureMeta = z.input<typeof ZProcedureMeta>;

type TMethod = (typeof REST_METHODS)[number];

/** A procedure's REST route(s): `.meta(rest("GET", "/api/loads", { summary, tags, scope }))`. */
export const rest = (method: TMethod, path: string, route: Omit<TRestRoute, "method" | "path">): TProcedureMeta => ({
  rest: [{ method, path, ...route }],
});

/** Several REST routes onto one procedure (one per path shape). */
export const restRoutes = (...routes: TRestRoute[]): TProcedureMeta => ({ rest: routes });
