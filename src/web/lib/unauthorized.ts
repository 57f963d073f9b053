import { useLingui } from "@lingui/react/macro";
import { useCallback } from "react";
import { loginHref } from "./auth";
import { clearPersistedQueries } from "./persist";
import { toast } from "./toast";
import { isUnauthorized } from "./trpc";

/**
 * A call that fails with 401 shows "Unauthorized" and sends the browser to sign in after 500 ms.
 * Returns true when it handled the error.
 */
export const useUnauthorizedRedirect = () => {
  const { t } = useLingui();
  return useCallback(
    (err: unknown) => {
      if (!isUnauthorized(err)) return false;
      // The saved answers belong to a session that has ended.
      clearPersistedQueries();
      toast({
        title: t({
          message: "Unauthorized",
          comment: "Notice title when the session has ended: not allowed without signing in again",
        }),
        description: t`You are logged out. Logging in again...`,
        variant: "destructive",
      });
      setTimeout(() => window.location.assign(loginHref(window.location.pathname + window.location.search)), 500);
      return true;
    },
    [t],
  );
};
