import { useQuery } from "@tanstack/react-query";
import { trpc } from "./trpc";

const FIVE_MINUTES = 5 * 60 * 1000;

/** The current-user query of SPEC section 7: fresh 5 minutes, refetched on mount, never on focus or reconnect. */
export const meQueryOptions = () =>
  trpc.auth.me.queryOptions(undefined, {
    staleTime: FIVE_MINUTES,
    refetchOnMount: true,
    refetchOnReconnect: false,
  });

export const useMe = () => useQuery(meQueryOptions());

/** Full-page navigation to sign in, coming back to `returnTo` afterwards. */
export const loginHref = (returnTo?: string, userType?: "driver" | "shipper") => {
  const q = new URLSearchParams();
  if (returnTo && returnTo !== "/") q.set("returnTo", returnTo);
  if (userType) q.set("userType", userType);
  const s = q.toString();
  return `/api/login${s ? `?${s}` : ""}`;
};
