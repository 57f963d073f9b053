// For native reviewers. `bun run i18n:review am|om [--out file.csv]` writes every message of the language as a
// spreadsheet (UTF-8 CSV): id, English, translator comment, where it appears, the glossary terms it contains and what
// the glossary check says of it, the current translation and an empty column for the corrected one.
// `bun run i18n:review am|om --apply file.csv` reads the corrected column back into the catalogs (shell or app, as the
// row says), refusing the whole file if a row's correction loses a placeholder or tag, then runs the catalog check and
// the glossary check. `--locales <dir>` works on another locales folder (tests).
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { LOCALES_DIR, TRANSLATED, type TTranslated } from "./lib/catalogs";
import { readGlossary } from "./lib/glossary";
import { applyReview, exportReview } from "./lib/review";

const usage = "Usage: bun run i18n:review am|om [--out file.csv] | bun run i18n:review am|om --apply file.csv";
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    apply: { type: "string" },
    locales: { type: "string", default: LOCALES_DIR },
  },
});
const lang = positionals[0] as TTranslated;
if (positionals.length !== 1 || !TRANSLATED.includes(lang)) {
  console.error(usage);
  process.exit(2);
}
const root = resolve(values.locales);

if (!values.apply) {
  const out = values.out ?? `i18n-review-${lang}.csv`;
  const { csv, count, language } = exportReview(root, lang, readGlossary(join(root, "glossary.json")));
  writeFileSync(out, csv);
  console.log(`${count} ${language} messages written to ${out}.`);
  console.log(
    `Fill in the "corrected translation (${lang})" column where a translation should change, keep {placeholders} and <0> tags as they are, save as CSV, then: bun run i18n:review ${lang} --apply ${out}`,
  );
  process.exit(0);
}

let text: string;
try {
  text = readFileSync(values.apply, "utf8");
} catch {
  console.error(`Cannot read ${values.apply}.`);
  process.exit(2);
}
let result: Awaited<ReturnType<typeof applyReview>>;
try {
  result = await applyReview(root, lang, text);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
if (result.refused.length) {
  for (const r of result.refused) console.error(`Line ${r.line} (${r.id}): ${r.reason}`);
  console.error(`${result.refused.length} row(s) refused; nothing was written. Correct them and apply the file again.`);
  process.exit(1);
}
for (const c of result.changed) console.log(`${c.sets.join("+")} ${c.id}: ${c.before} → ${c.after}`);
console.log(
  result.changed.length
    ? `${result.changed.length} translation(s) written to the ${lang} catalogs.`
    : "No corrected translation differs from the catalogs: nothing written.",
);

// The checks run on what was written: the catalog check (placeholders, tags) and the glossary.
let failed = false;
for (const script of ["check-catalogs.ts", "check-glossary.ts"]) {
  const run = Bun.spawnSync(["bun", join(import.meta.dir, script), "--locales", root], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (run.exitCode !== 0) failed = true;
}
if (failed) {
  console.error("The corrections are written, but a check failed (above): fix the rows it names, or the glossary.");
  process.exit(1);
}
