// The REST adapter, generated from the procedures' `rest` metadata (trpc/rest-meta.ts) and their input schemas: each
// route is a thin mapping onto one procedure. Path parameters, the query (GET) or the JSON body (other methods) make
// the procedure's input, which the procedure's own schema checks; the answer is the procedure's, or the declared part
// of it.
import type { AnyProcedure, TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { AppError } from "../../errors";
import { missingScope, SESSION_ONLY } from "../../modules/tokens/tokens";
import type { TContext } from "../../trpc/context";
import { type TRestRouteParsed, ZProcedureMeta } from "../../trpc/rest-meta";
import { appRouter } from "../../trpc/root";

export type TRestRequest = {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
};

export type TRestEndpoint = Omit<TRestRouteParsed, "params" | "answer" | "status"> & {
  status: number;
  /** The path parameters, each with the input field it fills. */
  params: { name: string; input: string; type: "id" | "text" }[];
  /** How the REST answer is taken from the procedure's, when it differs. */
  answerKind: TRestRouteParsed["answer"];
  /** The procedure's output schema (zod), for the OpenAPI document; null for a procedure without one. */
  outputSchema: z.ZodType | null;
  /** The procedure's path in the router (`loads.search`). */
  procedure: string;
  /** The procedure's input schema (zod), for the OpenAPI document. */
  inputSchema: z.ZodType | null;
  /** The procedure's input for a request (path ids checked here: a 400 naming the parameter). */
  input: (req: TRestRequest) => Record<string, unknown>;
  /** Runs the procedure with this context and input. */
  call: (ctx: TContext, input: unknown, signal?: AbortSignal) => Promise<unknown>;
  /** The REST answer from the procedure's. */
  answer: (output: unknown) => unknown;
};

const UNAUTHORIZED = /*i18n*/ {
  id: "error.auth.unauthorized",
  comment: "Error answer: the request needs a signed-in user",
  message: "Unauthorized",
};

/** A numeric path parameter, or a 400 naming it. */
export const idParam = (value: string | undefined, name: string) => {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.http.positiveInteger",
        message: "{name} must be a positive integer",
        values: { name },
      },
    );
  return id;
};

const isProcedure = (v: unknown): v is AnyProcedure =>
  typeof v === "function" && "_def" in v && typeof v._def === "object" && v._def !== null && "procedure" in v._def;

/** Every procedure of a router record with its dotted path, in declaration order. */
const proceduresOf = (record: TRPCRouterRecord, prefix = ""): [string, AnyProcedure][] =>
  Object.entries(record).flatMap(([key, value]): [string, AnyProcedure][] =>
    isProcedure(value) ? [[`${prefix}${key}`, value]] : proceduresOf(value, `${prefix}${key}.`),
  );

const unwrap = (schema: z.ZodType): z.ZodType => {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault)
    s = s.unwrap() as z.ZodType;
  return s;
};

/** The procedure's input schema: its one zod parser (procedures here take one `.input`). */
const inputSchemaOf = (proc: AnyProcedure): z.ZodType | null => {
  const [first] = proc._def.inputs;
  return first instanceof z.ZodType ? first : null;
};

/**
 * Query values are text; fields the schema takes as plain numbers get a number (an empty value is absent, text that is
 * no number stays text so the schema names the field). Fields with their own reading of text (the board's filters)
 * are left to it.
 */
const queryReader = (schema: z.ZodType | null) => {
  const shape = schema ? unwrap(schema) : null;
  const numeric = new Set(
    shape instanceof z.ZodObject
      ? Object.entries(shape.shape as Record<string, z.ZodType>)
          .filter(([, s]) => unwrap(s) instanceof z.ZodNumber)
          .map(([k]) => k)
      : [],
  );
  return (query: Record<string, string>): Record<string, unknown> => {
    if (!numeric.size) return { ...query };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(query)) {
      if (!numeric.has(k)) out[k] = v;
      else if (v.trim() !== "") out[k] = Number.isFinite(Number(v)) ? Number(v) : v;
    }
    return out;
  };
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const endpointOf = (path: string, proc: AnyProcedure, route: TRestRouteParsed): TRestEndpoint => {
  const { params: declared = {}, answer, status, ...rest } = route;
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = names.map((name) => {
    const p = declared[name] ?? name;
    return typeof p === "string" ? { name, input: p, type: "id" as const } : { name, ...p };
  });
  const inputSchema = inputSchemaOf(proc);
  const readQuery = queryReader(inputSchema);
  const fromQuery = route.method === "GET";
  const output = (proc._def as { output?: unknown }).output;
  return {
    ...rest,
    status: status ?? 200,
    params,
    answerKind: answer,
    outputSchema: output instanceof z.ZodType ? output : null,
    procedure: path,
    inputSchema,
    input: (req) => {
      const input = fromQuery ? readQuery(req.query) : { ...req.body };
      for (const p of params)
        input[p.input] = p.type === "id" ? idParam(req.params[p.name], p.name) : (req.params[p.name] ?? "");
      return input;
    },
    call: (ctx, input, signal) =>
      proc({ ctx, getRawInput: async () => input, path, type: proc._def.type, signal, batchIndex: 0 }),
    answer: !answer
      ? (output) => output
      : answer.kind === "field"
        ? (output) => (isRecord(output) ? output[answer.name] : output)
        : (output) => {
            if (output == null && answer.nullIsUnauthorized) throw new AppError("UNAUTHORIZED", UNAUTHORIZED);
            return { [answer.name]: output };
          },
  };
};

/** Refuses a token call outside the token's scopes (cookie sessions are not limited by scopes). */
export const assertTokenMay = (route: Pick<TRestEndpoint, "scope">, token: TContext["apiToken"]) => {
  if (!token || route.scope === "public") return;
  if (route.scope === "session") throw new AppError("FORBIDDEN", SESSION_ONLY);
  if (!token.scopes.includes(route.scope)) throw missingScope(route.scope);
};

/** Every REST route declared by the router's procedures, checked once at start (a malformed declaration throws). */
export const restRoutesOf = (record: TRPCRouterRecord): TRestEndpoint[] => {
  const out: TRestEndpoint[] = [];
  const seen = new Set<string>();
  for (const [path, proc] of proceduresOf(record)) {
    const meta = ZProcedureMeta.parse(proc._def.meta ?? {});
    for (const route of meta.rest ?? []) {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) throw new Error(`REST route declared twice: ${key} (${path})`);
      seen.add(key);
      out.push(endpointOf(path, proc, route));
    }
  }
  return out;
};

/** The REST paths of the API (fixed: callers and the web app's offline queue use them). */
export const REST_ROUTES = restRoutesOf(appRouter._def.record);
