import { t } from "@lingui/core/macro";
import { MutationCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../server/trpc/root";
import { MAX_TRPC_BATCH } from "../../shared/constants";
import { enqueue, newIdempotencyKey, QUEUEABLE, QUEUED_MESSAGE } from "./offline-queue";
import { requestBackgroundSync, watchedFetch } from "./online";
import { toast } from "./toast";

// No retries, no refetch on focus, data fresh until told otherwise.
export const queryClient = new QueryClient({
  // A write kept for later says so, once, whichever screen made it ('Offline - request queued for later').
  mutationCache: new MutationCache({
    onError: (err) => {
      if (err instanceof TRPCClientError && err.meta?.queued)
        toast({ title: t`Offline - request queued for later`, variant: "warning" });
    },
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: Number.POSITIVE_INFINITY },
    // Writes always run: offline, the link queues them (TanStack Query would otherwise hold them, unseen).
    mutations: { retry: false, networkMode: "always" },
  },
});

const isQueueable = (path: string): path is keyof typeof QUEUEABLE => path in QUEUEABLE;

/**
 * Writes that can wait (a bid, a load, a message, a location, a trip step, a rating) carry an Idempotency-Key; made
 * offline, or lost to the network on the way, they are queued with that key and fail with 'Offline - request
 * queued for later' (code QUEUED) instead of being dropped.
 */
const offlineLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      const path = op.path;
      if (op.type !== "mutation" || !isQueueable(path)) return next(op).subscribe(observer);
      const key = newIdempotencyKey();
      const queue = () => {
        enqueue(path, op.input, key);
        requestBackgroundSync().catch(() => {});
        observer.error(new TRPCClientError(QUEUED_MESSAGE, { meta: { queued: true } }));
      };
      // Without a network it waits at once; with one, even after a call got no answer, it is tried: the answer (or
      // its absence) says more than a probe that may be seconds away.
      if (!navigator.onLine) {
        queue();
        return;
      }
      const sub = next({ ...op, context: { ...op.context, idempotencyKey: key } }).subscribe({
        next: (v) => observer.next(v),
        complete: () => observer.complete(),
        // No answer at all (the connection dropped): the server may or may not have it; the key makes a replay safe.
        error: (err) => (err.meta?.response || err.data ? observer.error(err) : queue()),
      });
      return () => sub.unsubscribe();
    });

const sendCookies = (url: URL | RequestInfo, init?: RequestInit) =>
  watchedFetch(url, { ...init, credentials: "include" });

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    offlineLink,
    splitLink({
      condition: (op) => typeof op.context.idempotencyKey === "string",
      // Keyed writes go one per request, so each request's key belongs to one write.
      true: httpLink({
        url: "/trpc",
        fetch: sendCookies,
        headers: ({ op }) => ({ "Idempotency-Key": String(op.context.idempotencyKey) }),
      }),
      // Split at the server's cap: a longer batch is refused whole, and every query on the screen fails with it.
      false: httpBatchLink({ url: "/trpc", fetch: sendCookies, maxItems: MAX_TRPC_BATCH }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

export type TErrorInfo = {
  status: number;
  code: string;
  message: string;
  issues: { path: string; message: string }[];
  retryAfterSeconds?: number;
};

/** What a failed call said: HTTP status, code, message and field issues. A network failure has status 0. */
export const errorInfo = (err: unknown): TErrorInfo => {
  if (err instanceof TRPCClientError && err.meta?.queued)
    return { status: 0, code: "QUEUED", message: QUEUED_MESSAGE, issues: [] };
  if (err instanceof TRPCClientError) {
    const data = (err.data ?? {}) as {
      httpStatus?: number;
      code?: string;
      issues?: TErrorInfo["issues"];
      retryAfterSeconds?: number;
    };
    return {
      status: data.httpStatus ?? 0,
      code: data.code ?? "NETWORK",
      message: err.message,
      issues: data.issues ?? [],
      retryAfterSeconds: data.retryAfterSeconds,
    };
  }
  return { status: 0, code: "NETWORK", message: err instanceof Error ? err.message : String(err), issues: [] };
};

/**
 * An action that waits for a proven email or phone (posting more than a few loads, funding one): HTTP 403 with a
 * message id under `error.contact.`; the screen shows the message with a way to Settings.
 */
export const isContactRequired = (err: unknown): boolean => {
  if (!(err instanceof TRPCClientError)) return false;
  const data = (err.data ?? {}) as { messageId?: unknown; httpStatus?: unknown };
  return data.httpStatus === 403 && typeof data.messageId === "string" && data.messageId.startsWith("error.contact.");
};

/** A write kept for later: the screen shows it as pending rather than as an error. */
export const isQueued = (err: unknown) => errorInfo(err).code === "QUEUED";

export const isUnauthorized = (err: unknown) => errorInfo(err).status === 401;

/** The application's message id of a refusal (`error.<area>.<what>`), for screens that offer the way out beside it. */
export const messageIdOf = (err: unknown): string | undefined => {
  if (!(err instanceof TRPCClientError)) return undefined;
  const id = (err.data as { messageId?: unknown } | undefined)?.messageId;
  return typeof id === "string" ? id : undefined;
};

/**
 * A premium-only action refused because premium has ended: HTTP 402, tRPC's PAYMENT_REQUIRED, and the application's
 * code SUBSCRIPTION_REQUIRED in `data.appCode`.
 */
export const isSubscriptionRequired = (err: unknown): boolean => {
  if (!(err instanceof TRPCClientError)) return false;
  const data = (err.data ?? {}) as { appCode?: unknown; code?: unknown; httpStatus?: unknown };
  return data.appCode === "SUBSCRIPTION_REQUIRED" || data.code === "PAYMENT_REQUIRED" || data.httpStatus === 402;
};
