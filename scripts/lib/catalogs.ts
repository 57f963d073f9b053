// Reading and writing the .po catalogs the way `lingui extract` does (same formatter, same options), and the shape of a
// message (its {placeholders} and <0> tags) that a translation must keep.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatter } from "@lingui/format-po";
import { type CompiledMessage, compileMessageOrThrow } from "@lingui/message-utils/compileMessage";

export const LOCALES_DIR = join(import.meta.dir, "..", "..", "locales");
export const TRANSLATED = ["am", "om"] as const;
export type TTranslated = (typeof TRANSLATED)[number];

/** The two catalog sets of `lingui.config.ts`: the shell (first screen, CLI, server, bots) and the signed-in app. */
export const CATALOG_SETS = [
  { name: "shell", dir: "" },
  { name: "app", dir: "app" },
] as const;
export type TCatalogSet = (typeof CATALOG_SETS)[number]["name"];

export type TPoEntry = {
  message?: string;
  translation?: string;
  comments?: string[];
  origin?: [string, number | null][];
  obsolete?: boolean;
  context?: string;
  extra?: { translatorComments?: string[]; flags?: string[] };
};
export type TPoCatalog = Record<string, TPoEntry>;

// `lineNumbers: false` as in lingui.config.ts, so a catalog written here is byte-for-byte what `lingui extract` writes.
const po = formatter({ lineNumbers: false });

export const catalogPath = (root: string, set: TCatalogSet, locale: string) =>
  join(root, set === "app" ? "app" : "", `${locale}.po`);

export const readCatalog = (path: string): TPoCatalog =>
  po.parse(readFileSync(path, "utf8"), {
    locale: undefined,
    sourceLocale: "en",
    filename: path,
  } as never) as TPoCatalog;

export const writeCatalog = async (path: string, locale: string, catalog: TPoCatalog) => {
  const existing = readFileSync(path, "utf8");
  const text = await po.serialize(catalog as never, { locale, existing, filename: path, sourceLocale: "en" } as never);
  writeFileSync(path, text as string);
};

/** One message of a catalog set with its English and both translations. */
export type TMessageRow = {
  set: TCatalogSet;
  id: string;
  english: string;
  am: string;
  om: string;
  /** Lingui's extracted comments: the translator `comment`, and `placeholder {0}: …` notes. */
  comments: string[];
  origins: string[];
};

export const readMessages = (root = LOCALES_DIR): TMessageRow[] => {
  const rows: TMessageRow[] = [];
  for (const { name } of CATALOG_SETS) {
    const en = readCatalog(catalogPath(root, name, "en"));
    const am = readCatalog(catalogPath(root, name, "am"));
    const om = readCatalog(catalogPath(root, name, "om"));
    for (const [id, entry] of Object.entries(en)) {
      if (entry.obsolete) continue;
      rows.push({
        set: name,
        id,
        english: entry.translation || entry.message || id,
        am: am[id]?.translation ?? "",
        om: om[id]?.translation ?? "",
        comments: (entry.comments ?? []).filter((c) => c !== "js-lingui-explicit-id"),
        origins: [...new Set((entry.origin ?? []).map(([file]) => file))],
      });
    }
  }
  return rows;
};

/** A translator comment (Lingui's `comment`), without the generated `placeholder {0}: expression` notes. */
export const translatorComment = (row: Pick<TMessageRow, "comments">) =>
  row.comments.filter((c) => !/^placeholder \{\w+\}:/.test(c)).join(" ");

export type TShape = { placeholders: string; tags: string; error?: string };

const collectArguments = (tokens: CompiledMessage, into: Set<string>) => {
  for (const token of tokens) {
    if (typeof token === "string") continue;
    const [name, , format] = token;
    into.add(name);
    if (format && typeof format === "object") {
      for (const [key, branch] of Object.entries(format as Record<string, unknown>)) {
        if (key !== "offset" && Array.isArray(branch)) collectArguments(branch as CompiledMessage, into);
      }
    }
  }
};

/**
 * What a translation must keep of its English: the ICU argument names (`{name}`, `{n, plural, …}`; the text of a
 * plural branch is not one) and the `<0>…</0>` / `<0/>` tags that `Trans` fills with elements. A message that does not
 * parse as ICU reports the parser's error.
 */
export const messageShape = (message: string): TShape => {
  const tagOrder = (t: string) =>
    Number(t.replace(/\D/g, "")) * 3 + (t.startsWith("</") ? 1 : t.endsWith("/>") ? 2 : 0);
  const tags = (message.match(/<\/?\d+\s*\/?>/g) ?? [])
    .map((t) => t.replace(/\s/g, ""))
    .sort((a, b) => tagOrder(a) - tagOrder(b));
  try {
    const names = new Set<string>();
    collectArguments(compileMessageOrThrow(message), names);
    return { placeholders: [...names].sort().join(","), tags: tags.join("") };
  } catch (e) {
    const error = (e as Error).message.split("\n")[0];
    return { placeholders: "", tags: tags.join(""), error };
  }
};

const listArgs = (names: string) =>
  names
    ? names
        .split(",")
        .map((n) => `{${n}}`)
        .join(" ")
    : "none";

/** Why a translation cannot stand for its English, or undefined when its placeholders and tags match. */
export const shapeProblem = (english: string, translation: string): string | undefined => {
  const source = messageShape(english);
  const target = messageShape(translation);
  if (target.error && !source.error) return `not a valid ICU message (${target.error})`;
  if (source.placeholders !== target.placeholders)
    return `placeholders differ: English has ${listArgs(source.placeholders)}, the translation ${listArgs(target.placeholders)}`;
  if (source.tags !== target.tags)
    return `tags differ: English has ${source.tags || "none"}, the translation ${target.tags || "none"}`;
  return undefined;
};
