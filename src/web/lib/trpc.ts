import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../server/trpc/root";

// SPEC section 7: no retries, no refetch on focus, data fresh until told otherwise.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: Number.POSITIVE_INFINITY },
    mutations: { retry: false },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: "/trpc", fetch: (url, init) => fetch(url, { ...init, credentials: "include" }) })],
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

export const isUnauthorized = (err: unknown) => errorInfo(err).status === 401;
