import type { QueryClient } from "@tanstack/react-query";
import type { trpc as TTrpc } from "./trpc";

type TBootQuery = { path: string; input?: unknown; data: unknown };
type TKeyed = { queryKey: (input?: unknown) => readonly unknown[] };

/**
 * The first answers the server gave with the page (`<script id="mytess-boot">`, see server/http/static.ts) go into the
 * query cache before anything asks, so the current user, the rates and a driver's first board page cost no round trip.
 */
export const seedBootQueries = (queryClient: QueryClient, trpc: typeof TTrpc) => {
  const el = document.getElementById("mytess-boot");
  if (!el?.textContent) return 0;
  let entries: TBootQuery[];
  try {
    entries = JSON.parse(el.textContent) as TBootQuery[];
  } catch {
    return 0;
  }
  el.remove();
  let seeded = 0;
  for (const e of entries) {
    const proc = e.path.split(".").reduce<unknown>((p, k) => (p as Record<string, unknown>)?.[k], trpc) as
      | TKeyed
      | undefined;
    if (typeof proc?.queryKey !== "function") continue;
    queryClient.setQueryData(proc.queryKey(e.input), e.data);
    seeded++;
  }
  return seeded;
};
