import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

// Two catalog sets. "shell" holds what the first screen needs (landing, sign-in, the chrome) and the CLI and server
// messages; it loads before the first render. "app" holds the signed-in screens and loads lazily, so the landing
// page's first load does not grow with every feature.
const SHELL = [
  "<rootDir>/src/web/components/layout",
  "<rootDir>/src/web/components/landing",
  "<rootDir>/src/web/components/ui",
  "<rootDir>/src/web/components/loads/load-summary-card.tsx",
  "<rootDir>/src/web/components/loads/equipment-label.tsx",
  "<rootDir>/src/web/components/loads/driver-bid-row.tsx",
  // Amounts on the landing page: a converted one says it is an estimate in the visitor's language from the start.
  "<rootDir>/src/web/components/money/amount.tsx",
  "<rootDir>/src/web/lib",
  "<rootDir>/src/web/routes/__root.tsx",
  "<rootDir>/src/web/routes/landing.tsx",
  "<rootDir>/src/web/routes/signin.tsx",
  // The sign-in page's phone option (a code by SMS): shown before any signed-in screen has loaded the app catalog.
  "<rootDir>/src/web/components/account/phone-sign-in-form.tsx",
  "<rootDir>/src/web/routes/promotion.tsx",
  "<rootDir>/src/web/routes/subscribe.tsx",
  "<rootDir>/src/web/routes/contact.tsx",
  "<rootDir>/src/server",
  "<rootDir>/cli",
];

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "am", "om"],
  fallbackLocales: { default: "en" },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    { path: "<rootDir>/locales/{locale}", include: SHELL, exclude: ["**/node_modules/**", "**/*.test.ts"] },
    {
      path: "<rootDir>/locales/app/{locale}",
      include: ["<rootDir>/src/web"],
      exclude: [...SHELL, "**/node_modules/**", "**/*.test.ts"],
    },
  ],
});
