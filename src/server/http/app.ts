import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { Elysia } from "elysia";
import type { TDb } from "../../../db/client";
import type { User } from "../../../db/tables";
import { boardStatsInput, firstBoardPage } from "../../shared/board";
import { MAX_TRPC_BATCH, SESSION_COOKIE, type TLanguage } from "../../shared/constants";
import { MAX_DOCUMENT_BYTES } from "../../shared/schemas/documents";
import { MAX_VERIFICATION_FILE_BYTES } from "../../shared/schemas/verification";
import { telegramWebhookFor } from "../bots/telegram/webhook";
import { answerWhatsApp } from "../bots/whatsapp/inbound";
import { isSignedByBridge, WHATSAPP_WEB_INBOUND_PATH, ZWhatsAppWebInbound } from "../bots/whatsapp/web-inbound";
import { loadConfig, type TConfig, withIntegrationsOf } from "../config";
import { AppError } from "../errors";
import { LB123_CALLBACK_PATH } from "../integrations/boards/loadboard123-oauth";
import {
  parseWhatsAppWebhook,
  verifyWhatsAppSignature,
  whatsappChallenge,
} from "../integrations/notifiers/whatsapp-webhook";
import { createOidcClient } from "../integrations/oidc/oidc";
import { createLiveHub, liveStream } from "../live/hub";
import { logger } from "../logger";
import { readCookie, resolveSession } from "../modules/accounts/sessions";
import { applyChapaWebhook, applyStripeEvent, confirmChapa } from "../modules/billing/billing";
import { shareCard, shareCardTags, shareLanguage } from "../modules/loads/share-card";
import {
  applyFreightStripeEvent,
  confirmFreightChapa,
  isFreightStripeEvent,
  isFreightTxRef,
} from "../modules/payments/freight";
import {
  applyChapaPayoutWebhook,
  applyStripeTransferEvent,
  isPayoutTransferEvent,
  parseChapaPayoutRef,
  payWaitingFor,
} from "../modules/payments/payout-transfer";
import { applyStripeAccountEvent, isPayoutAccountEvent } from "../modules/payouts/payouts";
import { receiveWebhook } from "../modules/stores/orders";
import { createServices, type TServices } from "../services";
import { SIGN_IN_REQUIRED } from "../trpc/init";
import { appRouter, createCaller } from "../trpc/root";
import {
  API_DOCS_INIT_PATH,
  API_DOCS_SCRIPT_PATH,
  apiDocsInit,
  apiDocsPage,
  apiDocsRenderer,
  openApiJson,
} from "./api-docs";
import { createAuthRoutes } from "./auth-routes";
import { boardConnectCallback } from "./board-connect";
import { declaresTooLargeBody, readCapped, readJsonBody, readMultipartBody, tooLarge } from "./body";
import { compressResponse } from "./compress";
import { errorResponse, json, toHttpError } from "./errors";
import { fileResponse } from "./file-response";
import { IDEMPOTENCY_HEADER, withIdempotency } from "./idempotency";
import { requestLocale, requestRegion, requestTimeZone } from "./locale";
import { bearerToken, contextFromRequest, isSecureRequest, type TRequestMeta } from "./request-context";
import { assertTokenMay, REST_ROUTES } from "./rest/routes";
import { applySecurityHeaders, contentSecurityPolicy, isCrossSiteWrite } from "./security";
import { createStaticHandler, type TBootQuery } from "./static";

const WEBHOOK_REFUSED = /*i18n*/ { id: "error.webhook.refused", message: "Webhook call refused" };

export type TAppDeps = {
  db: TDb;
  config: TConfig;
  /** The process's services (main.ts makes them once for every role); made from `config` when absent. */
  services?: TServices;
  /** The integrations' settings from this environment instead of `config`'s (tests give their own Telegram webhook). */
  env?: Record<string, string | undefined>;
} & Partial<Omit<TServices, "log">>;

/** The whole server as one Elysia app; tests call `app.handle(request)`, main.ts listens. */
export const createApp = ({ db, config: given, services: made, env, ...overrides }: TAppDeps) => {
  const config = env ? withIntegrationsOf(given, loadConfig(env)) : given;
  const services = made ?? createServices(config, overrides);
  const { notifiers } = services;
  const live = createLiveHub(db);
  const telegramWebhook = telegramWebhookFor(config.telegram, {
    db,
    services,
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  const oidc = config.oidc ? createOidcClient(config.oidc) : null;
  const auth = createAuthRoutes(db, config, oidc, services);
  const boardCallback = boardConnectCallback(db, services.boards);
  const serveStatic = createStaticHandler(config.webDist, {
    bootQueries: (req, route, resHeaders) => bootQueries(req, route, resHeaders),
    headTags: async (req, route) => {
      const url = new URL(req.url);
      const loadId = route === "/loads/$id" ? Number(url.pathname.split("/")[2]) : null;
      const card = await shareCard(db, {
        loadId: loadId != null && Number.isSafeInteger(loadId) && loadId > 0 ? loadId : null,
        language: shareLanguage(url, requestLocale(req)),
        region: requestRegion(req),
        origin: config.publicUrl ? new URL(config.publicUrl).origin : url.origin,
        path: url.pathname,
      });
      return shareCardTags(card);
    },
  });
  const metaOf = (
    server: { requestIP?: (r: Request) => { address: string } | null } | null,
    req: Request,
  ): TRequestMeta => ({
    ip: server?.requestIP?.(req)?.address ?? null,
  });

  type TServer = Parameters<typeof metaOf>[0];
  const actorOf = async (req: Request): Promise<User | null> => {
    const token = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
    return token ? ((await resolveSession(db, token))?.user ?? null) : null;
  };
  /** The first answers a signed-in page asks for, given with its HTML (see static.ts). */
  const bootQueries = async (req: Request, route: string, resHeaders: Headers): Promise<TBootQuery[]> => {
    const ctx = await contextFromRequest(req, db, config, metaOf(null, req), "web", resHeaders, services);
    if (!ctx.actor) return [];
    const caller = createCaller(ctx);
    const [me, rates] = await Promise.all([caller.auth.me(), caller.platform.fxRates()]);
    const out: TBootQuery[] = [
      { path: "auth.me", data: me },
      { path: "platform.fxRates", data: rates },
    ];
    if (route === "/loads" && me) {
      const input = firstBoardPage(me.location ?? null);
      const stats = boardStatsInput(input);
      // A driver's board: the first page around their saved position, as the page's loader asks for it.
      // Anything refused or failing is left for the app to ask (and show) itself.
      const [page, figures] = await Promise.all([
        caller.loads.search(input).catch(() => undefined),
        caller.loads.stats(stats).catch(() => undefined),
      ]);
      if (page !== undefined) out.push({ path: "loads.search", input, data: page });
      if (figures !== undefined) out.push({ path: "loads.stats", input: stats, data: figures });
    }
    return out;
  };
  /** The language of an answer given before there is a context: the account's when known, else the request's. */
  const localeOf = (req: Request, actor?: User | null) =>
    (actor?.language as TLanguage | undefined) ?? requestLocale(req);
  const trpc = async (request: Request, server: TServer) => {
    // The body is read here, within the limit, so a chunked upload cannot grow past it inside tRPC.
    let req = request;
    if (request.method === "POST") {
      try {
        req = new Request(request.url, { method: "POST", headers: request.headers, body: await readCapped(request) });
      } catch (err) {
        return errorResponse(err, localeOf(request));
      }
    }
    const handle = () =>
      fetchRequestHandler({
        endpoint: "/trpc",
        req,
        router: appRouter,
        maxBatchSize: MAX_TRPC_BATCH,
        createContext: ({ resHeaders }) =>
          contextFromRequest(request, db, config, metaOf(server, request), "web", resHeaders, services),
        onError: ({ error }) => {
          if (toHttpError(error).status >= 500) logger.error("trpc error", { error: String(error.cause ?? error) });
        },
      });
    let res: Response;
    let actor: User | null = null;
    try {
      // A write replayed from the offline queue carries the key it was first sent with.
      if (request.headers.has(IDEMPOTENCY_HEADER)) {
        actor = await actorOf(request);
        res = await withIdempotency(db, req, actor?.id ?? null, handle);
      } else {
        res = await handle();
      }
    } catch (err) {
      return errorResponse(err, localeOf(request, actor));
    }
    // Answers carry user data: never kept by a browser or a shared cache.
    res.headers.set("Cache-Control", "no-store");
    return res;
  };

  const notFound = (request: Request) =>
    errorResponse(
      new AppError(
        "NOT_FOUND",
        /*i18n*/ {
          id: "error.http.notFound",
          comment: "Error answer: the address or record does not exist",
          message: "Not found",
        },
      ),
      localeOf(request),
    );

  const csp = contentSecurityPolicy(config.mapOrigins);
  const UPLOAD_PATH = /^\/api\/(loads\/[^/]+\/documents|verification\/files)$/;
  /**
   * A route outside the generated REST adapter (a form body, a file answer): the same context, caller and error
   * answers, the procedure still doing all the checking.
   */
  const explicit =
    (
      handle: (
        caller: ReturnType<typeof createCaller>,
        request: Request,
        params: Record<string, string>,
      ) => Promise<Response>,
    ) =>
    async ({ request, params, server }: { request: Request; params: Record<string, string>; server: TServer }) => {
      const resHeaders = new Headers();
      let locale = localeOf(request);
      try {
        const ctx = await contextFromRequest(
          request,
          db,
          config,
          metaOf(server, request),
          "rest",
          resHeaders,
          services,
        );
        locale = ctx.locale;
        if (!ctx.actor) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
        return await handle(createCaller(ctx), request, params);
      } catch (err) {
        return errorResponse(err, locale, resHeaders);
      }
    };
  const pathId = (params: Record<string, string>) => {
    const value = Number(params.id);
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new AppError(
        "BAD_REQUEST",
        /*i18n*/ {
          id: "error.http.positiveInteger",
          message: "{name} must be a positive integer",
          values: { name: "id" },
        },
      );
    return value;
  };
  // Elysia registers in place, so the loops below add to this same instance.
  const app = new Elysia()
    .onRequest(({ request }) => {
      const path = new URL(request.url).pathname;
      if (!path.startsWith("/api/") && !path.startsWith("/trpc/")) return;
      // A bearer call without the session cookie carries nothing a browser adds by itself, so the cross-site rule
      // (which protects cookies) does not apply to it; the token decides who calls (REST routes only).
      const bearerOnly = bearerToken(request) !== null && !readCookie(request.headers.get("cookie"), SESSION_COOKIE);
      if (!bearerOnly && isCrossSiteWrite(request, config.trustProxy)) {
        const refused = /*i18n*/ { id: "error.http.crossSite", message: "Cross-site request refused" };
        return errorResponse(new AppError("FORBIDDEN", refused), localeOf(request));
      }
      // Uploads have their own, larger limit, checked by their route as it reads them.
      if (declaresTooLargeBody(request) && !UPLOAD_PATH.test(path)) return errorResponse(tooLarge(), localeOf(request));
    })
    .mapResponse(async ({ request, response }) => {
      if (!(response instanceof Response)) return response as Response;
      const out = await compressResponse(request, response);
      applySecurityHeaders(out.headers, isSecureRequest(request, config), csp);
      return out;
    })
    .onError(({ error, code, request }) => {
      if (code === "NOT_FOUND") return notFound(request);
      return errorResponse(error, localeOf(request));
    })
    // Method by method: Elysia ranks a GET wildcard above an ALL route, and the web app's GET /* must not win.
    .get("/trpc/*", ({ request, server }) => trpc(request, server), { parse: "none" })
    .post("/trpc/*", ({ request, server }) => trpc(request, server), { parse: "none" })
    .get("/api/login", ({ request }) => auth.login(request))
    .get("/api/auth/callback", ({ request }) => auth.callback(request))
    .get("/api/logout", ({ request, server }) => auth.logout(request, metaOf(server, request)))
    .post("/api/logout", ({ request, server }) => auth.logout(request, metaOf(server, request)), { parse: "none" })
    .get("/api/health", () => json({ ok: true }))
    .get(
      "/api/openapi.json",
      () =>
        new Response(openApiJson(config.publicUrl ?? `http://localhost:${config.port}`), {
          headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" },
        }),
    )
    .get("/api/docs", () => new Response(apiDocsPage(), { headers: { "Content-Type": "text/html; charset=utf-8" } }))
    .get(API_DOCS_SCRIPT_PATH, apiDocsRenderer)
    .get(API_DOCS_INIT_PATH, apiDocsInit)
    .get(LB123_CALLBACK_PATH, async ({ request }) => boardCallback(request, await actorOf(request)))
    .post("/api/telegram/webhook", ({ request }) => (telegramWebhook ? telegramWebhook(request) : notFound(request)), {
      parse: "none",
    })
    // WhatsApp Cloud API webhook: Meta's subscription check, then signed deliveries of inbound messages.
    .get("/api/whatsapp/webhook", ({ request }) => {
      const hook = notifiers.whatsappWebhook;
      if (!hook) return notFound(request);
      const challenge = whatsappChallenge(new URL(request.url).searchParams, hook.verifyToken);
      return challenge === null
        ? errorResponse(new AppError("FORBIDDEN", WEBHOOK_REFUSED), localeOf(request))
        : new Response(challenge, { headers: { "Content-Type": "text/plain" } });
    })
    .post(
      "/api/whatsapp/webhook",
      async ({ request }) => {
        const hook = notifiers.whatsappWebhook;
        if (!hook) return notFound(request);
        const raw = new Uint8Array(await request.arrayBuffer());
        if (!verifyWhatsAppSignature(raw, request.headers.get("x-hub-signature-256"), hook.appSecret))
          return errorResponse(new AppError("UNAUTHORIZED", WEBHOOK_REFUSED), localeOf(request));
        let body: unknown = null;
        try {
          body = JSON.parse(new TextDecoder().decode(raw));
        } catch {}
        const baseUrl = config.publicUrl ?? `http://localhost:${config.port}`;
        for (const m of parseWhatsAppWebhook(body).messages) {
          try {
            await answerWhatsApp({ db, services, baseUrl }, m, "whatsapp");
          } catch (err) {
            logger.error("whatsapp message not handled", { error: String(err) });
          }
        }
        // Meta retries anything but a 200 for days: a message we could not act on is logged, not refused.
        return json({ ok: true });
      },
      { parse: "none" },
    )
    // WhatsApp Web (WHATSAPP_TRANSPORT=web): the bridge posts messages sent to the linked number, signed with the
    // secret it shares with us; anyone else is refused before the body is looked at.
    .post(
      WHATSAPP_WEB_INBOUND_PATH,
      async ({ request }) => {
        const web = notifiers.whatsappWeb;
        if (!web) return notFound(request);
        try {
          const raw = await readCapped(request);
          if (!isSignedByBridge(web.secret, raw, request.headers))
            return errorResponse(new AppError("UNAUTHORIZED", WEBHOOK_REFUSED), localeOf(request));
          let body: unknown = null;
          try {
            body = JSON.parse(raw);
          } catch {}
          const m = ZWhatsAppWebInbound.parse(body);
          const baseUrl = config.publicUrl ?? `http://localhost:${config.port}`;
          try {
            await answerWhatsApp({ db, services, baseUrl }, m, "whatsapp-web");
          } catch (err) {
            // As for the Cloud API: a message we could not act on is logged; the bridge would only send it again.
            logger.error("whatsapp message not handled", { error: String(err) });
          }
          return json({ ok: true });
        } catch (err) {
          return errorResponse(err, localeOf(request));
        }
      },
      { parse: "none" },
    )
    // Payments: Stripe's signed events; Chapa's signed webhook and its callback (each confirmed with Chapa's verify).
    .post(
      "/api/webhooks/stripe",
      async ({ request }) => {
        const stripe = services.payments.stripe;
        if (!stripe) return notFound(request);
        try {
          const raw = await request.text();
          const event = await stripe.verifyWebhook(raw, request.headers.get("stripe-signature"));
          // Drivers' Connect accounts: payouts enabled or not.
          if (isPayoutAccountEvent(event)) {
            const payout = await applyStripeAccountEvent(db, services.payments, event);
            // Payouts just became possible: whatever waited for this account is sent now.
            if (payout.enabledFor) await payWaitingFor(db, payout.enabledFor, "stripe");
            if (payout.ignored)
              logger.info("stripe account event ignored", { event: event.id, reason: payout.ignored });
            return json({ received: true, ...payout });
          }
          // Drivers' payouts: the transfer confirms the payout (read back from Stripe).
          if (isPayoutTransferEvent(event)) {
            const transfer = await applyStripeTransferEvent(db, services.payments, event);
            if (transfer.ignored)
              logger.info("stripe transfer event ignored", { event: event.id, reason: transfer.ignored });
            return json({ received: true, ...transfer });
          }
          // Freight payments name themselves in their metadata; everything else is the subscription's.
          if (isFreightStripeEvent(event)) {
            const freight = await applyFreightStripeEvent(db, services.payments, event);
            if (freight.refused)
              logger.warn("stripe freight payment refused", { event: event.id, reason: freight.refused });
            return json({ received: true, ...freight });
          }
          const applied = await applyStripeEvent(db, event, stripe);
          if (applied.refused)
            logger.warn("stripe invoice bought nothing", { event: event.id, reason: applied.refused });
          // Not placed yet (for our plan, but nothing names its account so far): Stripe sends it again later.
          if (applied.retry) {
            logger.warn("stripe event not placed yet", { event: event.id, type: event.type, reason: applied.retry });
            return json({ received: false, ...applied }, 503);
          }
          if (applied.ignored) logger.info("stripe event ignored", { event: event.id, reason: applied.ignored });
          return json({ received: true, ...applied });
        } catch (err) {
          return errorResponse(err, localeOf(request));
        }
      },
      { parse: "none" },
    )
    .post(
      "/api/webhooks/chapa",
      async ({ request }) => {
        if (!services.payments.chapa) return notFound(request);
        try {
          const raw = await request.text();
          const hook = services.payments.chapa.verifyWebhook(raw, request.headers);
          if (hook.kind === "transaction" && isFreightTxRef(hook.txRef)) {
            const freight = await confirmFreightChapa(db, services.payments, hook.txRef);
            if ("refused" in freight)
              logger.warn("chapa freight payment refused", { txRef: hook.txRef, reason: freight.refused });
            return json({ received: true, status: freight.status });
          }
          // Drivers' payouts: the webhook is a prompt; the transfer is verified with Chapa.
          if (hook.kind === "payout" && hook.reference && parseChapaPayoutRef(hook.reference)) {
            const payout = await applyChapaPayoutWebhook(db, services.payments, hook.reference);
            return json({ received: true, status: payout.status });
          }
          const r = await applyChapaWebhook(db, services.payments, raw, request.headers);
          if ("refused" in r)
            logger.warn("chapa payment bought nothing", { txRef: r.payment.providerRef, reason: r.refused });
          if ("ignored" in r) logger.info("chapa webhook ignored", { reason: r.ignored });
          return json({ received: true, status: r.status });
        } catch (err) {
          return errorResponse(err, localeOf(request));
        }
      },
      { parse: "none" },
    )
    .get("/api/webhooks/chapa/callback", async ({ request }) => {
      if (!services.payments.chapa) return notFound(request);
      const q = new URL(request.url).searchParams;
      const txRef = q.get("trx_ref") ?? q.get("tx_ref");
      if (!txRef) return notFound(request);
      try {
        if (isFreightTxRef(txRef)) {
          const freight = await confirmFreightChapa(db, services.payments, txRef);
          return json({ received: true, status: freight.status });
        }
        const r = await confirmChapa(db, services.payments, txRef);
        if ("refused" in r) logger.warn("chapa payment bought nothing", { txRef, reason: r.refused });
        return json({ received: true, status: r.status });
      } catch (err) {
        return errorResponse(err, localeOf(request));
      }
    })
    // Store webhooks (Shopify orders/create and orders/updated), one address per integration, signed by the store.
    .post(
      "/api/ecommerce/webhooks/:integrationId",
      async ({ request, params }) => {
        const id = Number(params.integrationId);
        if (!Number.isSafeInteger(id) || id <= 0) return notFound(request);
        try {
          const raw = await request.text();
          return json(await receiveWebhook(db, services.stores, id, raw, request.headers));
        } catch (err) {
          return errorResponse(err, localeOf(request));
        }
      },
      { parse: "none" },
    )
    // Live updates for the signed-in user (server-sent events); see src/server/live/hub.ts.
    // Load documents: a multipart upload (up to 10 MB) and the file itself. The answer is not stored for a replay; an
    // Idempotency-Key goes to the domain instead, which returns the document the key made before.
    .post(
      "/api/loads/:id/documents",
      explicit(async (caller, request, params) => {
        const loadId = pathId(params);
        const body = await readMultipartBody(request, MAX_DOCUMENT_BYTES + 64 * 1024);
        const clientKey = request.headers.get(IDEMPOTENCY_HEADER) ?? undefined;
        return json(await caller.documents.upload({ ...body, loadId, clientKey } as never), 201);
      }),
      { parse: "none" },
    )
    .get(
      "/api/documents/:id",
      explicit(async (caller, _request, params) =>
        fileResponse(await caller.documents.open({ documentId: pathId(params) })),
      ),
    )
    // An awarded load's rate confirmation as a PDF, in the reader's language, calendar and time zone.
    .get(
      "/api/loads/:id/rate-confirmation.pdf",
      explicit(async (caller, request, params) => {
        const file = await caller.rateConfirmations.pdf({ loadId: pathId(params), timeZone: requestTimeZone(request) });
        return fileResponse({
          fileName: file.fileName,
          contentType: "application/pdf",
          size: file.bytes.byteLength,
          stream: new Blob([file.bytes]).stream(),
        });
      }),
    )
    // A freight payment's receipt as a PDF, for either party, in the reader's language, calendar and time zone.
    .get(
      "/api/payments/:id/receipt.pdf",
      explicit(async (caller, request, params) => {
        const file = await caller.payments.receipt({ paymentId: pathId(params), timeZone: requestTimeZone(request) });
        return fileResponse({
          fileName: file.fileName,
          contentType: "application/pdf",
          size: file.bytes.byteLength,
          stream: new Blob([file.bytes]).stream(),
        });
      }),
    )
    // Verification files: a multipart upload (as load documents) and the file, for its owner and operators.
    .post(
      "/api/verification/files",
      explicit(async (caller, request) => {
        const body = await readMultipartBody(request, MAX_VERIFICATION_FILE_BYTES + 64 * 1024);
        return json(await caller.verification.upload(body as never), 201);
      }),
      { parse: "none" },
    )
    .get(
      "/api/verification/files/:id",
      explicit(async (caller, _request, params) =>
        fileResponse(await caller.verification.open({ id: pathId(params) })),
      ),
    )
    .get("/api/live", async ({ request }) => {
      const actor = await actorOf(request);
      if (!actor) return errorResponse(new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED), localeOf(request));
      return liveStream(live, actor.id, request.signal);
    });

  for (const r of REST_ROUTES) {
    app.route(
      r.method,
      r.path,
      async ({ request, params, server }) => {
        const resHeaders = new Headers();
        let locale = localeOf(request);
        try {
          const url = new URL(request.url);
          const ctx = await contextFromRequest(
            request,
            db,
            config,
            metaOf(server, request),
            "rest",
            resHeaders,
            services,
            true,
          );
          locale = ctx.locale;
          assertTokenMay(r, ctx.apiToken);
          // Nothing that grows with the body happens for a caller who may not send one.
          if (!ctx.actor && !r.anonymousBody && request.body) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
          return await withIdempotency(db, request, ctx.actor?.id ?? null, async () => {
            try {
              const input = r.input({
                params,
                query: Object.fromEntries(url.searchParams),
                body: await readJsonBody(request),
              });
              const result = r.answer(await r.call(ctx, input, request.signal));
              return json(result ?? { ok: true }, r.status, resHeaders);
            } catch (err) {
              return errorResponse(err, locale, resHeaders);
            }
          });
        } catch (err) {
          return errorResponse(err, locale, resHeaders);
        }
      },
      { parse: "none" },
    );
  }

  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"])
    app.route(method, "/api/*", ({ request }) => notFound(request));
  return Object.assign(
    app.get("/*", ({ request }) => serveStatic(request)),
    { live },
  );
};
export type TApp = ReturnType<typeof createApp>;
