import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "am", "om"],
  fallbackLocales: { default: "en" },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    { path: "<rootDir>/locales/{locale}", include: ["src", "cli"], exclude: ["**/node_modules/**", "**/*.test.ts"] },
  ],
});
