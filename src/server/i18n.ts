// Translations for code that runs under Bun without a bundler (CLI, bots, server messages): the same .po catalogs as
// the web app, read once and compiled at run time. Messages use Lingui's non-macro API with explicit ids, which
// `lingui extract` collects into the shared catalogs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type MessageDescriptor, setupI18n } from "@lingui/core";
import { formatter } from "@lingui/format-po";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { LANGUAGE_CODES, type TLanguage } from "../shared/constants";

const LOCALES_DIR = join(import.meta.dir, "..", "..", "locales");

type TCatalog = Record<string, { message?: string; translation?: string }>;

const load = () => {
  const po = formatter();
  const read = (l: string) => po.parse(readFileSync(join(LOCALES_DIR, `${l}.po`), "utf8"), {} as never) as TCatalog;
  const en = read("en");
  const messages: Record<string, Record<string, string>> = {};
  for (const l of LANGUAGE_CODES) {
    const catalog = l === "en" ? en : read(l);
    messages[l] = Object.fromEntries(
      Object.entries(catalog).map(([id, e]) => [id, e.translation || en[id]?.translation || e.message || id]),
    );
  }
  return messages;
};

export const i18n = setupI18n();
i18n.setMessagesCompiler(compileMessage);
i18n.load(load());
i18n.activate("en");

export const isLanguage = (v: unknown): v is TLanguage =>
  typeof v === "string" && (LANGUAGE_CODES as readonly string[]).includes(v);

/** A message in the given language (English when a translation is missing). */
export const translate = (locale: TLanguage, descriptor: MessageDescriptor, values?: Record<string, unknown>) => {
  if (i18n.locale !== locale) i18n.activate(locale);
  return i18n._({ ...descriptor, values });
};

/** The language named by a POSIX locale such as am_ET.UTF-8, or English. */
export const languageFromEnv = (env: Record<string, string | undefined> = process.env): TLanguage => {
  const code = (env.MYTESS_LANG ?? env.LC_ALL ?? env.LC_MESSAGES ?? env.LANG ?? "").slice(0, 2).toLowerCase();
  return isLanguage(code) ? code : "en";
};
