import { useQuery } from "@tanstack/react-query";
import { clearPersistedQueries } from "./persist";
import { trpc } from "./trpc";

const FIVE_MINUTES = 5 * 60 * 1000;

// Remembers whether this device was signed in last time, so start-up can fetch the signed-in screens' messages while
// the current-user call is still on its way. Only a hint: the server's answer decides.
const SIGNED_IN_HINT = "mytess.signedIn";
export const wasSignedIn = () => localStorage.getItem(SIGNED_IN_HINT) === "1";
const rememberSignedIn = (signedIn: boolean) => {
  if (signedIn) localStorage.setItem(SIGNED_IN_HINT, "1");
  else localStorage.removeItem(SIGNED_IN_HINT);
};

/** The current-user query: fresh 5 minutes, refetched on mount, never on focus or reconnect. */
export const meQueryOptions = () => {
  const options = trpc.auth.me.queryOptions(undefined, {
    staleTime: FIVE_MINUTES,
    refetchOnMount: true,
    refetchOnReconnect: false,
  });
  const fetchMe = options.queryFn!;
  return {
    ...options,
    queryFn: async (ctx: Parameters<typeof fetchMe>[0]) => {
      const me = await fetchMe(ctx);
      rememberSignedIn(Boolean(me));
      if (!me) clearPersistedQueries();
      return me;
    },
  };
};

export const useMe = () => useQuery(meQueryOptions());

/**
 * Full-page navigation to sign in, coming back to `returnTo` afterwards. `mode` opens account creation ("register") or
 * sign-in; with a role and no mode, account creation for that role.
 */
export const loginHref = (returnTo?: string, userType?: "driver" | "shipper", mode?: "signin" | "register") => {
  const q = new URLSearchParams();
  if (returnTo && returnTo !== "/") q.set("returnTo", returnTo);
  if (userType) q.set("userType", userType);
  if (mode) q.set("mode", mode);
  const s = q.toString();
  return `/api/login${s ? `?${s}` : ""}`;
};
