// Fails when a catalog lacks a translation, or a translation loses or invents a {placeholder} or a <0> tag, or does not
// parse as an ICU message. Checks both catalog sets: the shell (locales/) and the signed-in app (locales/app/).
// `--locales <dir>` checks another locales folder (tests).
import { parseArgs } from "node:util";
import { LOCALES_DIR, readMessages, shapeProblem, TRANSLATED } from "./lib/catalogs";

const { values } = parseArgs({ options: { locales: { type: "string", default: LOCALES_DIR } } });
let problems = 0;
const rows = readMessages(values.locales);
for (const row of rows) {
  for (const locale of TRANSLATED) {
    const where = `locales/${row.set === "app" ? "app/" : ""}${locale}.po`;
    const translated = row[locale];
    const problem = translated ? shapeProblem(row.english, translated) : "missing translation";
    if (problem) {
      console.error(`${where}: ${problem} for ${JSON.stringify(row.english)}: ${JSON.stringify(translated)}`);
      problems++;
    }
  }
}
if (problems) {
  console.error(`${problems} catalog problem(s) across am and om (${rows.length} messages).`);
  process.exit(1);
}
console.log(`Catalogs complete: ${rows.length} messages in en, am and om.`);
