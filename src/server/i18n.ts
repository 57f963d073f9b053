// Translations for code that runs under Bun without a bundler (CLI, bots, server messages): the same .po catalogs as
// the web app, read once and compiled at run time. Messages use Lingui's non-macro API with explicit ids, which
// `lingui extract` collects into the shared catalogs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type I18n, type MessageDescriptor, setupI18n } from "@lingui/core";
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

const catalogs = load();
const instance = (locale: string, messages: Record<string, string>) => {
  const i = setupI18n({ locale, messages: { [locale]: messages } });
  i.setMessagesCompiler(compileMessage);
  return i;
};

/** The CLI's instance: activated once in the operator's language (`cli/context.ts`). */
export const i18n = setupI18n();
i18n.setMessagesCompiler(compileMessage);
i18n.load(catalogs);
i18n.activate("en");

// One instance per language for `translate`, so translating for one caller never switches another's language.
const byLocale = Object.fromEntries(LANGUAGE_CODES.map((l) => [l, instance(l, catalogs[l])])) as Record<
  TLanguage,
  I18n
>;
// No catalog at all: a message's own English default, whatever en.po says.
const source = instance("en", {});

export const isLanguage = (v: unknown): v is TLanguage =>
  typeof v === "string" && (LANGUAGE_CODES as readonly string[]).includes(v);

/**
 * A message with an explicit id and its English default, as errors carry it (written as an object literal marked with
 * an `i18n` comment, which `lingui extract` collects). A value may itself be such a message (a status word, a fallback
 * reason); it is translated with the message.
 */
export type TMessage = {
  id: string;
  message: string;
  values?: Record<string, unknown>;
  /** For translators only (where the message appears, what it means); `lingui extract` puts it in the catalogs. */
  comment?: string;
};

const isMessage = (v: unknown): v is TMessage =>
  typeof v === "object" && v !== null && typeof (v as TMessage).id === "string" && "message" in v;

const render = (i: I18n, descriptor: MessageDescriptor, values = descriptor.values): string =>
  i._({
    id: descriptor.id,
    message: descriptor.message,
    values: values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, isMessage(v) ? render(i, v) : v])),
  });

/** A message in the given language (English when a translation is missing). */
export const translate = (locale: TLanguage, descriptor: MessageDescriptor, values?: Record<string, unknown>) =>
  render(byLocale[locale] ?? byLocale.en, descriptor, values ?? descriptor.values);

/** A message's English default with its values filled in, as the code states it (logs, `Error.message`). */
export const sourceText = (descriptor: MessageDescriptor) => render(source, descriptor);
