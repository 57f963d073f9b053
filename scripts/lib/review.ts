// The native reviewers' round trip: every message of one language as a spreadsheet (CSV), and the corrections made in
// it read back into the catalogs.
import {
  catalogPath,
  readCatalog,
  readMessages,
  shapeProblem,
  type TCatalogSet,
  type TMessageRow,
  type TTranslated,
  writeCatalog,
} from "./catalogs";
import { checkGlossary, compileTerms, plainText, readGlossary, type TGlossary } from "./glossary";

const LANGUAGE_NAMES: Record<TTranslated, string> = { am: "Amharic", om: "Afaan Oromo" };

export const COLUMNS = {
  catalog: "catalog",
  id: "id",
  english: "English",
  comment: "comment (what and where)",
  where: "where it appears",
  glossary: "glossary terms",
  problems: "glossary check",
  current: (lang: TTranslated) => `current translation (${lang})`,
  corrected: (lang: TTranslated) => `corrected translation (${lang})`,
};

// Excel opens a UTF-8 file as UTF-8 (Ethiopic intact) only when it starts with a byte order mark.
const BOM = "\uFEFF";

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
export const toCsv = (rows: string[][]) => `${BOM}${rows.map((r) => r.map(quote).join(",")).join("\r\n")}\r\n`;

/** RFC 4180 CSV, with the delimiter Excel chose (comma, semicolon in some locales, or tab). */
export const parseCsv = (text: string): string[][] => {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const counts = [",", ";", "\t"].map((d) => [d, firstLine.split(d).length] as const);
  const delimiter = counts.sort((a, b) => b[1] - a[1])[0][0];
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ""));
};

/** One row per message; a message the shell and the app both carry is one row, corrected in both. */
type TReviewRow = { sets: TCatalogSet[]; row: TMessageRow };

const reviewRows = (messages: TMessageRow[]): TReviewRow[] => {
  const byKey = new Map<string, TReviewRow>();
  for (const m of messages) {
    const key = JSON.stringify([m.id, m.english]);
    const seen = byKey.get(key);
    if (seen) {
      seen.sets.push(m.set);
      seen.row = { ...seen.row, origins: [...new Set([...seen.row.origins, ...m.origins])] };
    } else byKey.set(key, { sets: [m.set], row: m });
  }
  return [...byKey.values()];
};

export const exportReview = (root: string, lang: TTranslated, glossary: TGlossary = readGlossary()) => {
  const messages = readMessages(root);
  const terms = compileTerms(glossary);
  const problems = new Map<string, string[]>();
  for (const v of checkGlossary(glossary, messages)) {
    if (v.lang !== lang || !v.id) continue;
    const key = `${v.set} ${v.id}`;
    problems.set(key, [...(problems.get(key) ?? []), v.problem]);
  }
  const header = [
    COLUMNS.catalog,
    COLUMNS.id,
    COLUMNS.english,
    COLUMNS.comment,
    COLUMNS.where,
    COLUMNS.glossary,
    COLUMNS.problems,
    COLUMNS.current(lang),
    COLUMNS.corrected(lang),
  ];
  const rows = reviewRows(messages).map(({ sets, row }) => [
    sets.join(" "),
    row.id,
    row.english,
    row.comments.join(" | "),
    row.origins.join(", "),
    terms
      .filter((t) => t.enRe.test(plainText(row.english)))
      .map((t) => `${t.term} = ${t[lang].use}`)
      .join("; "),
    [...new Set(sets.flatMap((s) => problems.get(`${s} ${row.id}`) ?? []))].join("; "),
    row[lang],
    "",
  ]);
  return { csv: toCsv([header, ...rows]), count: rows.length, language: LANGUAGE_NAMES[lang] };
};

export type TRefusal = { line: number; id: string; reason: string };
export type TApplyResult = {
  changed: { sets: TCatalogSet[]; id: string; before: string; after: string }[];
  refused: TRefusal[];
};

/**
 * Reads the corrected column back. Nothing is written unless every correction can stand: a row naming an unknown
 * message, whose English changed since the export, or whose correction loses a placeholder or tag is refused, named
 * by its line in the file and its id.
 */
export const applyReview = async (root: string, lang: TTranslated, text: string): Promise<TApplyResult> => {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error("The file is empty.");
  const column = (name: string) => header.findIndex((h) => h.trim() === name);
  const col = {
    catalog: column(COLUMNS.catalog),
    id: column(COLUMNS.id),
    english: column(COLUMNS.english),
    corrected: column(COLUMNS.corrected(lang)),
  };
  const otherLanguage = header.find((h) => /^corrected translation \((\w+)\)$/.test(h.trim()));
  if (col.corrected < 0) {
    throw new Error(
      otherLanguage
        ? `This file is for another language (${otherLanguage.trim()}), not ${lang}.`
        : `The file has no "${COLUMNS.corrected(lang)}" column.`,
    );
  }
  for (const [name, index] of Object.entries(col)) {
    if (index < 0) throw new Error(`The file has no "${COLUMNS[name as "id"]}" column.`);
  }

  const catalogs = new Map<TCatalogSet, ReturnType<typeof readCatalog>>();
  const english = new Map<TCatalogSet, ReturnType<typeof readCatalog>>();
  for (const set of ["shell", "app"] as const) {
    catalogs.set(set, readCatalog(catalogPath(root, set, lang)));
    english.set(set, readCatalog(catalogPath(root, set, "en")));
  }

  // Why a row cannot be applied, or undefined.
  const problemWith = (sets: string[], id: string, englishCell: string, corrected: string) => {
    if (!sets.every((s): s is TCatalogSet => s === "shell" || s === "app")) {
      return `the catalog column says ${JSON.stringify(sets.join(" "))}, not shell or app`;
    }
    for (const set of sets) {
      const source = english.get(set)![id];
      if (!source) return `no message with this id in the ${set} catalog`;
      const sourceText = source.translation || source.message || id;
      if (sourceText !== englishCell) {
        return `the English has changed since the file was written (now ${JSON.stringify(sourceText)})`;
      }
      const problem = shapeProblem(sourceText, corrected);
      if (problem) return problem;
    }
    return undefined;
  };

  const result: TApplyResult = { changed: [], refused: [] };
  for (const [index, cells] of rows.entries()) {
    const corrected = (cells[col.corrected] ?? "").trim();
    if (!corrected) continue;
    const id = (cells[col.id] ?? "").trim();
    const sets = (cells[col.catalog] ?? "").trim().split(/\s+/) as TCatalogSet[];
    const problem = problemWith(sets, id, cells[col.english] ?? "", corrected);
    if (problem) {
      result.refused.push({ line: index + 2, id, reason: problem });
      continue;
    }
    const current = sets.map((s) => catalogs.get(s)![id]?.translation ?? "");
    if (current.every((t) => t === corrected)) continue;
    result.changed.push({ sets, id, before: current[0], after: corrected });
  }
  if (result.refused.length) return result;

  for (const { sets, id, after } of result.changed) {
    for (const set of sets) {
      const catalog = catalogs.get(set)!;
      catalog[id] = { ...(catalog[id] ?? english.get(set)![id]), translation: after };
    }
  }
  for (const set of new Set(result.changed.flatMap((c) => c.sets))) {
    await writeCatalog(catalogPath(root, set, lang), lang, catalogs.get(set)!);
  }
  return result;
};
