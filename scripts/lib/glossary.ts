// The project's Amharic and Afaan Oromo glossary (locales/glossary.json): checking the catalogs against it, and its
// readable form (locales/GLOSSARY.md).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import {
  LOCALES_DIR,
  type TCatalogSet,
  type TMessageRow,
  TRANSLATED,
  type TTranslated,
  translatorComment,
} from "./catalogs";

export const GLOSSARY_PATH = join(LOCALES_DIR, "glossary.json");

const ZRegex = z.string().refine(
  (s) => {
    try {
      new RegExp(s, "u");
      return true;
    } catch {
      return false;
    }
  },
  { message: "not a valid regular expression" },
);
const ZLanguageTerm = z.object({ use: z.string().min(1), match: ZRegex });
const ZTerm = z.object({
  term: z.string().min(1),
  en: ZRegex,
  enFlags: z.string().optional(),
  am: ZLanguageTerm,
  om: ZLanguageTerm,
  confidence: z.string().regex(/^[HML]\/[HML]$/),
  note: z.string(),
});
const ZRule = z
  .object({
    id: z.string().min(1),
    lang: z.enum(TRANSLATED),
    pattern: ZRegex.optional(),
    words: z.array(z.string().min(1)).optional(),
    whenEn: ZRegex.optional(),
    unlessEn: ZRegex.optional(),
    enFlags: z.string().optional(),
    reason: z.string().min(1),
  })
  .refine((r) => !!r.pattern !== !!r.words, { message: "a rule has either a pattern or words" });
const ZException = z.object({
  set: z.enum(["shell", "app"]),
  id: z.string().min(1),
  lang: z.enum([...TRANSLATED, "en"]),
  check: z.string().min(1),
  reason: z.string().min(1),
});
export const ZGlossary = z.object({
  about: z.string(),
  terms: z.array(ZTerm),
  rules: z.array(ZRule),
  exceptions: z.array(ZException),
});
export type TGlossary = z.infer<typeof ZGlossary>;
export type TTerm = z.infer<typeof ZTerm>;

export const readGlossary = (path = GLOSSARY_PATH): TGlossary => {
  const parsed = ZGlossary.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`${path}: ${issues}`);
  }
  return parsed.data;
};

/** The words of a message a term is looked for in: {placeholders}, ICU keywords, <0> tags and CLI flags are not words. */
export const plainText = (message: string) =>
  message
    .replace(/(^|\s)--[\w-]+/g, " ")
    .replace(/\{\w+\}/g, " ")
    .replace(/\{\w+,\s*\w+,/g, " ")
    .replace(/<\/?\d+\s*\/?>/g, " ")
    .replace(/[’‘ʼ]/g, "'");

// A whole word: not next to another letter, combining mark or (Oromo's glottal stop) apostrophe.
const wholeWords = (words: string[]) =>
  `(?<![\\p{L}\\p{M}'])(?:${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\p{L}\\p{M}'])`;

const compile = (source: string, flags = "i") => new RegExp(source, `${flags.replace("u", "")}u`);

/**
 * One or two words of English ("Load", "Rate", "Post") rarely say which sense is meant, so such messages carry a
 * translator comment. Plural and select messages spell out their phrases and are not counted.
 */
export const isShort = (english: string) =>
  !/\{\w+,\s*(plural|select|selectordinal)\s*,/.test(english) &&
  plainText(english)
    .split(/\s+/)
    .filter((w) => /[A-Za-z]/.test(w)).length <= 2;

export type TViolation = {
  set: TCatalogSet;
  id: string;
  /** "en" when the English source itself lacks something (a translator comment). */
  lang: TTranslated | "en";
  english: string;
  translation: string;
  /** The term or rule the translation breaks. */
  check: string;
  problem: string;
};

type TCompiledTerm = TTerm & { enRe: RegExp; matchRe: Record<TTranslated, RegExp> };

export const compileTerms = (glossary: TGlossary): TCompiledTerm[] =>
  glossary.terms.map((t) => ({
    ...t,
    enRe: compile(t.en, t.enFlags ?? "i"),
    matchRe: { am: compile(t.am.match), om: compile(t.om.match) },
  }));

/** The glossary terms a message's English contains. */
export const termsIn = (terms: TCompiledTerm[], english: string) =>
  terms.filter((t) => t.enRe.test(plainText(english)));

/**
 * Every place the catalogs depart from the glossary: a message whose English contains a term but whose translation
 * has none of the term's accepted forms; a form a rule forbids; the same message translated differently in the two
 * catalog sets; and an exception that no longer excuses anything (so the list stays true).
 */
export const checkGlossary = (glossary: TGlossary, rows: TMessageRow[]): TViolation[] => {
  const terms = compileTerms(glossary);
  const rules = glossary.rules.map((r) => ({
    ...r,
    re: compile(r.words ? wholeWords(r.words) : r.pattern!, "gi"),
    whenRe: r.whenEn ? compile(r.whenEn, r.enFlags ?? "i") : undefined,
    unlessRe: r.unlessEn ? compile(r.unlessEn, r.enFlags ?? "i") : undefined,
  }));
  const known = new Set([...terms.map((t) => t.term), ...rules.map((r) => r.id), "same-in-both-sets", "needs-comment"]);
  const violations: TViolation[] = [];
  for (const e of glossary.exceptions) {
    if (!known.has(e.check)) {
      violations.push({
        ...e,
        english: "",
        translation: "",
        problem: `the exception names ${JSON.stringify(e.check)}, which is neither a term nor a rule`,
      });
    }
  }
  const excused = new Set<string>();
  const isExcused = (row: TMessageRow, lang: TTranslated | "en", check: string) => {
    const found = glossary.exceptions.find(
      (e) => e.set === row.set && e.id === row.id && e.lang === lang && e.check === check,
    );
    if (found) excused.add(JSON.stringify([found.set, found.id, found.lang, found.check]));
    return !!found;
  };

  for (const row of rows) {
    const english = plainText(row.english);
    if (isShort(row.english) && !translatorComment(row) && !isExcused(row, "en", "needs-comment")) {
      violations.push({
        set: row.set,
        id: row.id,
        lang: "en",
        english: row.english,
        translation: "",
        check: "needs-comment",
        problem:
          "a message of one or two words needs a translator comment saying where it appears and what it means (Lingui's `comment`)",
      });
    }
    for (const lang of TRANSLATED) {
      const translation = row[lang];
      if (!translation) continue;
      const text = plainText(translation);
      for (const term of terms) {
        if (!term.enRe.test(english) || term.matchRe[lang].test(text)) continue;
        if (isExcused(row, lang, term.term)) continue;
        violations.push({
          set: row.set,
          id: row.id,
          lang,
          english: row.english,
          translation,
          check: term.term,
          problem: `"${term.term}" should be ${term[lang].use}`,
        });
      }
      for (const rule of rules) {
        if (rule.lang !== lang) continue;
        if (rule.whenRe && !rule.whenRe.test(english)) continue;
        if (rule.unlessRe?.test(english)) continue;
        const found = [...new Set([...text.matchAll(rule.re)].map((m) => `"${m[0]}"`))];
        if (!found.length || isExcused(row, lang, rule.id)) continue;
        violations.push({
          set: row.set,
          id: row.id,
          lang,
          english: row.english,
          translation,
          check: rule.id,
          problem: `${found.join(", ")}: ${rule.reason}`,
        });
      }
    }
  }

  // One message, one translation: the shell and the app each carry some of the same messages.
  const shell = new Map(rows.filter((r) => r.set === "shell").map((r) => [r.id, r]));
  for (const row of rows.filter((r) => r.set === "app")) {
    const other = shell.get(row.id);
    if (!other) continue;
    for (const lang of TRANSLATED) {
      if (other[lang] === row[lang] || isExcused(row, lang, "same-in-both-sets")) continue;
      violations.push({
        set: row.set,
        id: row.id,
        lang,
        english: row.english,
        translation: row[lang],
        check: "same-in-both-sets",
        problem: `the shell catalog translates it ${JSON.stringify(other[lang])}`,
      });
    }
  }

  for (const e of glossary.exceptions) {
    if (!known.has(e.check)) continue;
    if (excused.has(JSON.stringify([e.set, e.id, e.lang, e.check]))) continue;
    const row = rows.find((r) => r.set === e.set && r.id === e.id);
    violations.push({
      ...e,
      english: row?.english ?? "",
      translation: row && e.lang !== "en" ? row[e.lang] : "",
      problem: "the exception no longer excuses anything (message gone or now following the glossary): remove it",
    });
  }
  return violations;
};

export const formatViolation = (v: TViolation) =>
  [
    `${v.set === "app" ? "locales/app" : "locales"}/${v.lang}.po ${JSON.stringify(v.id)} [${v.check}]`,
    `  English:     ${v.english}`,
    ...(v.lang === "en" ? [] : [`  Translation: ${v.translation}`]),
    `  ${v.problem}`,
  ].join("\n");

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (s: string) => `\`${s.replaceAll("|", "\\|")}\``;

/** The glossary as a Markdown page for people (GLOSSARY.md is generated from glossary.json; edit the JSON). */
export const renderGlossary = (glossary: TGlossary) => {
  const lines = [
    "# MyTess glossary: Amharic and Afaan Oromo",
    "",
    "Generated from `glossary.json` by `bun run i18n:glossary --write`; edit the JSON, not this page. `bun run test`",
    "fails when this page is out of step with the JSON, or when a catalog departs from the glossary.",
    "",
    glossary.about,
    "",
    "## Terms",
    "",
    "| English | Amharic | Afaan Oromo | Conf. am/om | Note |",
    "|---|---|---|---|---|",
    ...glossary.terms.map(
      (t) =>
        `| ${cell(t.term)} (${code(t.en)}) | ${cell(t.am.use)} (${code(t.am.match)}) | ${cell(t.om.use)} (${code(t.om.match)}) | ${t.confidence} | ${cell(t.note)} |`,
    ),
    "",
    "## Forms that must not appear",
    "",
    "| Rule | Language | In messages whose English matches | Forbidden | Why |",
    "|---|---|---|---|---|",
    ...glossary.rules.map(
      (r) =>
        `| ${r.id} | ${r.lang} | ${r.whenEn ? code(r.whenEn) : "any"}${r.unlessEn ? ` but not ${code(r.unlessEn)}` : ""} | ${r.words ? cell(r.words.join(", ")) : code(r.pattern!)} | ${cell(r.reason)} |`,
    ),
    "",
    "Besides these, a message the shell and the app catalogs both carry has the same translation in both",
    "(`same-in-both-sets`), and a message of one or two English words carries a translator comment (Lingui's",
    "`comment`: where it appears and what it means) so a reviewer can work from the catalogs alone (`needs-comment`).",
    "",
    "## Exceptions",
    "",
    "| Catalog | Message id | Language | Term or rule | Reason |",
    "|---|---|---|---|---|",
    ...glossary.exceptions.map(
      (e) => `| ${e.set} | ${code(e.id)} | ${e.lang} | ${cell(e.check)} | ${cell(e.reason)} |`,
    ),
    "",
  ];
  return lines.join("\n");
};
