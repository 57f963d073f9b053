import { createFileRoute, Outlet, redirect } from "@tanstack/react-router";
import { loginHref } from "../lib/auth";
import { loadAppMessages } from "../lib/i18n";

/** Every route below needs a signed-in user; others go to sign in and come back. */
export const Route = createFileRoute("/_authed")({
  beforeLoad: async ({ context, location }) => {
    if (!context.me) throw redirect({ href: loginHref(location.href), reloadDocument: true });
    await loadAppMessages();
    return { me: context.me };
  },
  component: () => (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <Outlet />
    </div>
  ),
});
