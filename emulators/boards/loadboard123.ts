// 123Loadboard emulator: OAuth2 (authorize page, token endpoint) and the load search. Every API call must carry
// 123LB-Api-Version: 1.3, 123LB-AID and a User-Agent. The one client is sandbox/sandbox.
//
//   GET  /authorize      response_type=code, client_id, redirect_uri, scope (loadsearching [offline_access]), state,
//                        code_challenge + code_challenge_method=S256 (optional): a page with Approve and Deny
//   POST /authorize      the page's answer: 302 to redirect_uri with code and state (or error=access_denied)
//   POST /token          Basic base64(clientId:clientSecret), form grant_type=
//                          authorization_code (code, redirect_uri, code_verifier when the code has a challenge),
//                          refresh_token (refresh_token), or client_credentials (scope)
//   POST /loads/search   Bearer token of a user who allowed loadsearching, {metadata, origin, destination, …} → {loads[]}
//
// Load search needs a user's authorization: a client-credentials token is refused with 403 insufficient_scope.
// Access tokens expire (expires_in, 3600 s unless the control says otherwise); a code is single-use and lives ten
// minutes; offline_access gives a refresh token, and each refresh answers a new one and spends the old (rotation), so
// a refresh token used twice is refused with invalid_grant. OAuth errors are {error, error_description}; the API's
// are {error, message}.
//
// 123Loadboard's documentation is not public: the fields of a load in the answer are our reading of it, kept the same
// as in src/server/integrations/boards/loadboard123.ts.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { TEquipmentType } from "../../src/shared/constants";
import {
  createBoardState,
  datesOf,
  findCity,
  iso,
  json,
  northAmericanLoads,
  readJsonBody,
  searchLoads,
  type TBoardControl,
  type TEmuLoad,
  type TEmuQuery,
} from "./model";

export const LB123_SANDBOX = { clientId: "sandbox", clientSecret: "sandbox" } as const;
/** The 123Loadboard user who approves on the emulator's authorize page. */
export const LB123_SANDBOX_USER = "sandbox-carrier";

const NAMES: Record<string, TEquipmentType> = {
  Van: "dry_van",
  Reefer: "refrigerated",
  Flatbed: "flatbed",
  StepDeck: "step_deck",
  Lowboy: "lowboy",
  Tanker: "tanker",
  Container: "container",
};
const NAME_OF = Object.fromEntries(Object.entries(NAMES).map(([k, v]) => [v, k])) as Record<TEquipmentType, string>;

const ZArea = z.object({
  type: z.enum(["City", "States", "Anywhere"]),
  city: z.string().optional(),
  states: z.array(z.string()).optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  radius: z.number().nonnegative().max(1000).optional(),
});
const ZSearch = z.object({
  metadata: z.object({
    limit: z.number().int().positive().max(500),
    sortBy: z.object({ field: z.string(), direction: z.enum(["Ascending", "Descending"]) }).optional(),
    fields: z.string().optional(),
    type: z.string().optional(),
  }),
  origin: ZArea,
  destination: ZArea.optional(),
  equipmentTypes: z.array(z.string()).optional(),
  loadSize: z.enum(["Tl", "Ltl", "All"]).optional(),
  includeLoadsWithoutWeight: z.boolean().optional(),
});

const area = (a: z.output<typeof ZArea>): TEmuQuery["origin"] | "anywhere" | null => {
  if (a.type === "Anywhere") return "anywhere";
  const radiusMiles = a.radius ?? 50;
  if (a.type === "City") {
    if (a.latitude !== undefined && a.longitude !== undefined)
      return { latitude: a.latitude, longitude: a.longitude, radiusMiles };
    const c = findCity(a.city, a.states?.[0]);
    return c ? { latitude: c.latitude, longitude: c.longitude, radiusMiles } : null;
  }
  return a.states?.length ? { states: a.states } : null;
};

/** A load as 123Loadboard lists it (our reading of its fields). */
export const lb123Load = (l: TEmuLoad, now = Date.now()) => {
  const d = datesOf(l, now);
  const place = (p: TEmuLoad["origin"]) => ({
    city: p.city,
    state: p.state,
    country: p.country,
    postalCode: p.postalCode,
    latitude: p.latitude,
    longitude: p.longitude,
  });
  // One load in five gives only a pickup date, as some posters do.
  const dateOnly = Number(l.id.replace(/\D/g, "")) % 5 === 0;
  return {
    id: l.id,
    origin: place(l.origin),
    destination: place(l.destination),
    ...(dateOnly ? { pickupDate: iso(d.pickupAt).slice(0, 10) } : { pickupDateTimes: [iso(d.pickupAt)] }),
    deliveryDate: d.deliveryAt === null ? null : iso(d.deliveryAt),
    equipments: [{ equipmentType: NAME_OF[l.equipment] }],
    loadSize: l.fullLoad ? "Tl" : "Ltl",
    weight: l.weightLbs,
    length: l.lengthFeet,
    rate: l.rate === null ? null : { amount: l.rate, currency: l.currency },
    mileage: l.miles,
    poster: {
      company: { name: l.company.name, mcNumber: l.company.mcNumber, phone: l.company.phone, email: l.company.email },
      contactName: l.contactName,
    },
    notes: l.comments,
    createdOn: iso(d.postedAt),
  };
};

const HEADER_ERRORS: [string, (v: string | null) => boolean, string][] = [
  ["123LB-Api-Version", (v) => v === "1.3", "The 123LB-Api-Version header must be 1.3"],
  ["123LB-AID", (v) => Boolean(v?.trim()), "The 123LB-AID header is required"],
  ["User-Agent", (v) => Boolean(v?.trim()), "A User-Agent header naming the application is required"],
];

const oauthError = (error: string, description: string, status = 400) =>
  json({ error, error_description: description }, status, { "Cache-Control": "no-store" });

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The consent page: what the application asks for, and Approve / Deny (posted back with the request's parameters). */
const consentPage = (params: URLSearchParams, scopes: string[]) => {
  const hidden = [...params.entries()]
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join("");
  const asks = scopes
    .map((s) =>
      s === "loadsearching"
        ? "<li>Search loads on the load board as you</li>"
        : s === "offline_access"
          ? "<li>Keep doing so while you are away (a refresh token)</li>"
          : `<li>${esc(s)}</li>`,
    )
    .join("");
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>123Loadboard Sandbox · Authorize</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;` +
      `margin:3rem auto;padding:0 1rem;color:#1b2a41}h1{font-size:1.2rem}form{display:inline}button{font-size:1rem;` +
      `padding:.6rem 1.4rem;margin:.3rem .3rem 0 0;border-radius:6px;border:1px solid #e4572e;background:#e4572e;` +
      `color:#fff;cursor:pointer}button.secondary{background:#fff;color:#e4572e}</style></head><body>` +
      `<h1>123Loadboard Sandbox · Authorize</h1>` +
      `<p>Signed in as <strong data-testid="lb123-user">${LB123_SANDBOX_USER}</strong>.</p>` +
      `<p>The application <strong>${esc(params.get("client_id") ?? "")}</strong> asks to:</p><ul>${asks}</ul>` +
      `<form method="post" action="/authorize">${hidden}<input type="hidden" name="decision" value="approve">` +
      `<button type="submit">Approve</button></form>` +
      `<form method="post" action="/authorize">${hidden}<input type="hidden" name="decision" value="deny">` +
      `<button class="secondary" type="submit">Deny</button></form></body></html>`,
    { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } },
  );
};

const redirectTo = (uri: string, params: Record<string, string | null>) => {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return new Response(null, { status: 302, headers: { Location: u.href, "Cache-Control": "no-store" } });
};

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

type TCode = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  challenge: string | null;
  user: string;
  expiresAt: number;
};
type TAccess = { kind: "user" | "client"; user: string | null; scopes: string[]; expiresAt: number };
type TRefresh = { clientId: string; user: string; scopes: string[] };

export type TLoadboard123Control = TBoardControl & {
  /** Codes, access and refresh tokens issued (refreshes included), for tests that count them. */
  issued: { codes: number; refreshes: number };
  /** The user revokes the application: every refresh token stops working (access tokens run out as they expire). */
  revokeRefreshTokens: () => void;
};

export const createLoadboard123Emulator = () => {
  const state = createBoardState({
    seed: () => northAmericanLoads("123loadboard", (i) => `LB${String(5100000 + i * 3)}`),
    tokenLifetimeSeconds: 3600,
    outage: () => json({ error: "service_unavailable", message: "The service is temporarily unavailable" }, 503),
    rateLimited: () =>
      json({ error: "too_many_requests", message: "API rate limit exceeded" }, 429, { "Retry-After": "30" }),
  });
  const codes = new Map<string, TCode>();
  const access = new Map<string, TAccess>();
  const refresh = new Map<string, TRefresh>();
  const control: TLoadboard123Control = Object.assign(state.control, {
    issued: { codes: 0, refreshes: 0 },
    revokeRefreshTokens: () => refresh.clear(),
  });
  const baseExpire = control.expireTokens;
  control.expireTokens = () => {
    baseExpire();
    access.clear();
  };
  const baseReset = control.reset;
  control.reset = () => {
    baseReset();
    codes.clear();
    access.clear();
    refresh.clear();
    control.issued = { codes: 0, refreshes: 0 };
  };

  const random = () => crypto.randomUUID().replaceAll("-", "");
  const issue = (kind: TAccess["kind"], user: string | null, scopes: string[], clientId: string) => {
    const token = `lb.${kind}.${random()}`;
    const lifetime = control.tokenLifetimeSeconds;
    access.set(token, { kind, user, scopes, expiresAt: Date.now() + lifetime * 1000 });
    const body: Record<string, unknown> = {
      access_token: token,
      token_type: "Bearer",
      expires_in: lifetime,
      scope: scopes.join(" "),
    };
    if (user && scopes.includes("offline_access")) {
      const r = `lbr.${random()}`;
      refresh.set(r, { clientId, user, scopes });
      body.refresh_token = r;
    }
    return json(body, 200, { "Cache-Control": "no-store" });
  };

  /** GET /authorize, and the page's POST back: the same checks of the request. */
  const authorize = async (req: Request, url: URL) => {
    const params = req.method === "GET" ? url.searchParams : new URLSearchParams(await req.text().catch(() => ""));
    const clientId = params.get("client_id");
    const redirectUri = params.get("redirect_uri") ?? "";
    if (clientId !== LB123_SANDBOX.clientId) return oauthError("unauthorized_client", "Unknown client_id");
    let back: URL;
    try {
      back = new URL(redirectUri);
      if (back.protocol !== "https:" && back.protocol !== "http:") throw new Error("scheme");
    } catch {
      return oauthError("invalid_request", "redirect_uri must be an absolute http(s) address");
    }
    const stateParam = params.get("state");
    const fail = (error: string, description: string) =>
      redirectTo(back.href, { error, error_description: description, state: stateParam });
    if (params.get("response_type") !== "code") return fail("unsupported_response_type", "response_type must be code");
    const scopes = (params.get("scope") ?? "").split(/\s+/).filter(Boolean);
    if (!scopes.includes("loadsearching")) return fail("invalid_scope", "scope must include loadsearching");
    const challenge = params.get("code_challenge");
    if (challenge && params.get("code_challenge_method") !== "S256")
      return fail("invalid_request", "code_challenge_method must be S256");
    if (req.method === "GET") return consentPage(params, scopes);
    if (params.get("decision") !== "approve") return fail("access_denied", "The user denied the request");
    const code = `lbc.${random()}`;
    codes.set(code, {
      clientId,
      redirectUri,
      scopes,
      challenge,
      user: LB123_SANDBOX_USER,
      expiresAt: Date.now() + 10 * 60_000,
    });
    control.issued.codes++;
    return redirectTo(back.href, { code, state: stateParam });
  };

  const token = async (req: Request) => {
    const [scheme, encoded] = (req.headers.get("authorization") ?? "").split(" ");
    const [id, secret] = scheme?.toLowerCase() === "basic" ? atob(encoded ?? "").split(":") : [];
    if (id !== LB123_SANDBOX.clientId || secret !== LB123_SANDBOX.clientSecret)
      return oauthError("invalid_client", "Client authentication failed", 401);
    const form = new URLSearchParams(await req.text());
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const key = form.get("code") ?? "";
      const c = codes.get(key);
      // Single use: a code is spent by its first exchange, right or wrong.
      codes.delete(key);
      if (!c || c.expiresAt < Date.now())
        return oauthError("invalid_grant", "The authorization code is invalid or expired");
      if (c.clientId !== id) return oauthError("invalid_grant", "The code was issued to another client");
      if (c.redirectUri !== form.get("redirect_uri"))
        return oauthError("invalid_grant", "redirect_uri does not match the authorization request");
      if (c.challenge && s256(form.get("code_verifier") ?? "") !== c.challenge)
        return oauthError("invalid_grant", "PKCE verification failed");
      return issue("user", c.user, c.scopes, id);
    }
    if (grant === "refresh_token") {
      const key = form.get("refresh_token") ?? "";
      const r = refresh.get(key);
      if (!r || r.clientId !== id)
        return oauthError("invalid_grant", "The refresh token is invalid, expired or revoked");
      // Rotation: the old refresh token is spent.
      refresh.delete(key);
      control.issued.refreshes++;
      return issue("user", r.user, r.scopes, id);
    }
    if (grant === "client_credentials") {
      const scopes = (form.get("scope") ?? "").split(/\s+/).filter(Boolean);
      return issue("client", null, scopes, id);
    }
    return oauthError(
      "unsupported_grant_type",
      "grant_type must be authorization_code, refresh_token or client_credentials",
    );
  };

  const search = async (req: Request) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
    const t = m ? access.get(m[1]) : undefined;
    if (!t || t.expiresAt <= Date.now())
      return json({ error: "invalid_token", message: "The access token is invalid or has expired" }, 401, {
        "WWW-Authenticate": 'Bearer error="invalid_token"',
      });
    if (t.kind !== "user" || !t.scopes.includes("loadsearching"))
      return json(
        {
          error: "insufficient_scope",
          message:
            "Load search needs a 123Loadboard user's authorization (authorization code grant, scope loadsearching)",
        },
        403,
        { "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="loadsearching"' },
      );
    const body = ZSearch.safeParse(await readJsonBody(req));
    if (!body.success) {
      const i = body.error.issues[0];
      return json({ error: "invalid_request", message: `${i?.path.join(".") || "body"}: ${i?.message}` }, 400);
    }
    const b = body.data;
    const origin = area(b.origin);
    if (!origin || origin === "anywhere")
      return json({ error: "invalid_request", message: "origin needs a city, coordinates or states" }, 400);
    const destination = b.destination ? area(b.destination) : "anywhere";
    if (!destination) return json({ error: "invalid_request", message: "destination is not a known place" }, 400);
    const unknown = b.equipmentTypes?.find((e) => !NAMES[e]);
    if (unknown) return json({ error: "invalid_request", message: `Unknown equipment type ${unknown}` }, 400);
    const size = b.loadSize ?? "All";
    const loads = state
      .current()
      .filter((l) => size === "All" || (size === "Tl") === l.fullLoad)
      .filter((l) => b.includeLoadsWithoutWeight !== false || l.weightLbs !== null);
    const { total, results } = searchLoads(loads, {
      origin,
      destination: destination === "anywhere" ? null : destination,
      equipment: b.equipmentTypes?.map((e) => NAMES[e]),
      limit: b.metadata.limit,
    });
    const now = Date.now();
    return json({ loads: results.map((r) => lb123Load(r.load, now)), metadata: { totalResults: total } });
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname;
    // The authorize page is the user's browser talking to 123Loadboard, not the API: no API headers.
    if (path === "/authorize" && (req.method === "GET" || req.method === "POST")) {
      const refused = await state.enter("other");
      if (refused) return refused;
      return authorize(req, url);
    }
    const isToken = req.method === "POST" && path === "/token";
    const isSearch = req.method === "POST" && path === "/loads/search";
    const refused = await state.enter(isToken ? "token" : isSearch ? "search" : "other");
    if (refused) return refused;
    for (const [name, ok, message] of HEADER_ERRORS)
      if (!ok(req.headers.get(name))) return json({ error: "invalid_request", message }, 400);
    if (isToken) return token(req);
    if (isSearch) return search(req);
    return json({ error: "not_found", message: `${req.method} ${path} is not an API endpoint` }, 404);
  };
  return { handle, control };
};

/**
 * A browser on the Sandbox's authorize page, for tests: opens the authorize address, presses Approve (or Deny) and
 * returns where the page sends the browser back (the redirect URI with code and state, or error).
 */
export const answerSandboxAuthorize = async (authorizeUrl: string, decision: "approve" | "deny" = "approve") => {
  const page = await fetch(authorizeUrl, { redirect: "manual" });
  const html = await page.text();
  const form = [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)].find((f) =>
    f[2].includes(`name="decision" value="${decision}"`),
  );
  if (!form) throw new Error(`no ${decision} form on the authorize page (HTTP ${page.status}): ${html.slice(0, 200)}`);
  const decode = (v: string) =>
    v.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]!);
  const body = new URLSearchParams(
    [...form[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      decode(m[1]),
      decode(m[2]),
    ]),
  );
  const res = await fetch(new URL(form[1], authorizeUrl), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
  const location = res.headers.get("location");
  if (!location) throw new Error(`the authorize page did not redirect (HTTP ${res.status})`);
  return new URL(location);
};
