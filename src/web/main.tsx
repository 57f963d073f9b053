import "./styles.css";
import { I18nProvider } from "@lingui/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { NotFound } from "./components/layout/not-found";
import { Splash } from "./components/layout/splash";
import { meQueryOptions, wasSignedIn } from "./lib/auth";
import { seedBootQueries } from "./lib/boot-data";
import { activateLanguage, detectLanguage, i18n, loadAppMessages } from "./lib/i18n";
import { persistQueries } from "./lib/persist";
import { PreferencesProvider } from "./lib/preferences";
import { queryClient, trpc } from "./lib/trpc";
import { routeTree } from "./routeTree.gen";

const router = createRouter({
  routeTree,
  context: { queryClient, trpc },
  defaultPreload: "intent",
  defaultPreloadStaleTime: 0,
  defaultNotFoundComponent: NotFound,
  defaultPendingComponent: Splash,
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

// Everything the first screen needs starts at once: the current user, the language's messages and, on a device that was
// signed in, the signed-in screens' messages. The router's checks then find the answers in flight instead of asking
// one after the other.
persistQueries(queryClient);
seedBootQueries(queryClient, trpc);
void queryClient.prefetchQuery(meQueryOptions());
const language = detectLanguage();
if (wasSignedIn()) void loadAppMessages(language);
await activateLanguage(language);

// A page rendered at build time is on screen already (src/web/prerender): the app draws over it once its route is
// ready, so the splash never flashes in between.
const root = document.getElementById("root")!;
if (root.dataset.prerendered) await router.load().catch(() => {});

createRoot(root).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <PreferencesProvider>
          <RouterProvider router={router} />
        </PreferencesProvider>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
