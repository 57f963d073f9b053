import { useQuery } from "@tanstack/react-query";
import type { TRouterOutputs } from "./api-types";
import { trpc } from "./trpc";

export type TMyBid = TRouterOutputs["bids"]["mine"][number];

/**
 * The driver's own bid on a load, as every place that shows the load marks it ("Your bid: Br 9,800 · pending"): the
 * pending one, else the newest that was not withdrawn. One query of the driver's bids serves the whole board (React
 * Query shares it), and a bid placed or changed refreshes it with the other bid queries.
 */
export const useMyBid = (loadId: number, enabled: boolean): TMyBid | null => {
  const mine = useQuery(trpc.bids.mine.queryOptions(undefined, { staleTime: 30_000, enabled }));
  if (!enabled || !mine.data) return null;
  const onLoad = mine.data.filter((b) => b.loadId === loadId && b.status !== "withdrawn");
  return onLoad.find((b) => b.status === "pending") ?? onLoad[0] ?? null;
};
