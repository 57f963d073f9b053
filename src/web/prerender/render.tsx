// Build-time rendering of the public pages a first visit opens (the landing page), so a phone on a slow network sees
// the page in the HTML, before the app's code has arrived. `scripts/prerender.ts` calls `render` for each language
// from the SSR build of this file and writes the markup that the server puts inside `<div id="root">`. The app then
// starts as usual (createRoot) and replaces it with the same page. Data the page asks for (figures, sample loads) is
// not in the markup: it shows its loading state, as the app does before its answers arrive.
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRouter, RouterProvider } from "@tanstack/react-router";
import { renderToString } from "react-dom/server";
import type { TLanguage } from "../../shared/constants";
import { NotFound } from "../components/layout/not-found";
import { Splash } from "../components/layout/splash";
import { i18n } from "../lib/i18n";
import { PreferencesProvider } from "../lib/preferences";
import { trpc } from "../lib/trpc";
import { routeTree } from "../routeTree.gen";

const catalogs: Record<TLanguage, () => Promise<{ messages: Record<string, unknown> }>> = {
  en: () => import("../../../locales/en.po"),
  am: () => import("../../../locales/am.po"),
  om: () => import("../../../locales/om.po"),
};

/** The markup of `path` for a signed-out visitor reading `language`. */
export const render = async (path: string, language: TLanguage) => {
  const { messages } = await catalogs[language]();
  i18n.load(language, messages as never);
  i18n.activate(language);
  // Nothing is fetched while rendering: queries stay pending and the page shows what it shows while it waits.
  const queryClient = new QueryClient({ defaultOptions: { queries: { enabled: false, retry: false } } });
  const router = createRouter({
    routeTree,
    context: { queryClient, trpc },
    history: createMemoryHistory({ initialEntries: [path] }),
    defaultNotFoundComponent: NotFound,
    defaultPendingComponent: Splash,
    isServer: true,
  });
  await router.load();
  return renderToString(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <PreferencesProvider>
          <RouterProvider router={router} />
        </PreferencesProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
};
