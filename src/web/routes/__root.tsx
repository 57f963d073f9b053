import { Trans, useLingui } from "@lingui/react/macro";
import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Outlet, useLocation } from "@tanstack/react-router";
import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { lazy, Suspense, useEffect } from "react";
import type { AppRouter } from "../../server/trpc/root";
import { ConnectionStatus } from "../components/layout/connection-status";
import { Footer } from "../components/layout/footer";
import { Header } from "../components/layout/header";
import { NotFound } from "../components/layout/not-found";
import { Splash } from "../components/layout/splash";
import { UpdateBanner } from "../components/layout/update-banner";
import { meQueryOptions, useMe } from "../lib/auth";
import { isOnline } from "../lib/online";
import { readPendingBid } from "../lib/pending-bid";

// The toast region loads right after the first paint; toasts raised before it arrives wait in the store.
const Toaster = lazy(() => import("../components/ui/toaster").then((m) => ({ default: m.Toaster })));
// The offline queue's sender and its pending list; code the first screen does not need.
const QueueStatus = lazy(() => import("../components/layout/queue-status").then((m) => ({ default: m.QueueStatus })));
// For Amharic and Oromo readers: a one-time suggestion of the Ethiopian calendar.
const CalendarSuggestion = lazy(() =>
  import("../components/layout/calendar-suggestion").then((m) => ({ default: m.CalendarSuggestion })),
);
// A bid made on the landing page before sign-up is placed once the account exists.
const PendingBidPlacer = lazy(() =>
  import("../components/layout/pending-bid-placer").then((m) => ({ default: m.PendingBidPlacer })),
);

const RENDER_BEFORE_ME = new Set(["/landing", "/promotion", "/contact"]);

export type TRouterContext = { queryClient: QueryClient; trpc: TRPCOptionsProxy<AppRouter> };

export const Route = createRootRouteWithContext<TRouterContext>()({
  // Who is signed in decides the route table, so it is known before any route renders (the splash shows meanwhile).
  // Public pages that only show the user in the header render at once; the header follows when the answer comes.
  // Online, the server's answer decides; offline, the last saved answer stands in (the app opens on the last data).
  beforeLoad: async ({ context, location }) => {
    const cached = context.queryClient.getQueryData(meQueryOptions().queryKey);
    if (RENDER_BEFORE_ME.has(location.pathname)) {
      void context.queryClient.prefetchQuery(meQueryOptions());
      return { me: cached ?? null };
    }
    if (!isOnline()) return { me: cached ?? null };
    try {
      return { me: await context.queryClient.fetchQuery(meQueryOptions()) };
    } catch {
      return { me: cached ?? null };
    }
  },
  pendingComponent: Splash,
  pendingMs: 0,
  component: RootLayout,
  notFoundComponent: NotFound,
});

/** The browser tab says where the user is: "Load Board · MyTess", in their language. */
function usePageTitle() {
  const { t } = useLingui();
  const path = useLocation({ select: (l) => l.pathname });
  useEffect(() => {
    const titles: Record<string, string> = {
      "/": t({ message: "Home", comment: "Browser tab title of the start page" }),
      "/landing": t`The freight marketplace for drivers and shippers`,
      "/driver": t`Driver dashboard`,
      "/shipper": t`Shipper dashboard`,
      "/loads": t`Load Board`,
      "/shipping": t`Shipping`,
      "/messaging": t`Messages`,
      "/marketplaces": t`Marketplaces`,
      "/ecommerce": t`E-commerce`,
      "/settings": t`Settings`,
      "/profile": t`Profile`,
      "/company": t({
        message: "Company",
        comment: "Browser tab title of the page of the company the user belongs to",
      }),
      "/signin": t`Log in`,
      "/promotion": t`Promote`,
      "/subscribe": t`Premium plan`,
      "/contact": t`Contact us`,
      "/about": t`About MyTess`,
      "/terms": t`Terms of use`,
      "/privacy": t`Privacy`,
    };
    const page =
      titles[path] ??
      (/^\/loads\/\d+$/.test(path)
        ? t({ message: "Shared load", comment: "Browser tab title of a load page opened from a shared link" })
        : path.startsWith("/track/")
          ? t({
              message: "Trip tracking",
              comment: "Browser tab title of the page a consignee opens from a trip's tracking link",
            })
          : path.startsWith("/invitations/")
            ? t({
                message: "Company invitation",
                comment: "Browser tab title of the page an invitation to join a company opens",
              })
            : t`Page not found`);
    document.title = `${page} · MyTess`;
  }, [path, t]);
}

function RootLayout() {
  usePageTitle();
  const hasPendingBid = readPendingBid() !== null;
  const me = useMe().data;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-white px-3 py-2 text-sm font-medium text-brand shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        <Trans>Skip to content</Trans>
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
      <Footer />
      <Suspense fallback={null}>
        <Toaster />
        <QueueStatus />
        {hasPendingBid && <PendingBidPlacer />}
        {me && <CalendarSuggestion />}
      </Suspense>
      <ConnectionStatus />
      <UpdateBanner />
    </div>
  );
}
