// Checks both catalog sets against the glossary (locales/glossary.json) and that locales/GLOSSARY.md is generated from
// it. `--write` regenerates GLOSSARY.md first; `--locales <dir>` checks another locales folder (tests).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LOCALES_DIR, readMessages } from "./lib/catalogs";
import { checkGlossary, formatViolation, readGlossary, renderGlossary } from "./lib/glossary";

const { values } = parseArgs({
  options: { write: { type: "boolean", default: false }, locales: { type: "string", default: LOCALES_DIR } },
});
const root = values.locales;
const glossary = readGlossary(join(root, "glossary.json"));
const mdPath = join(root, "GLOSSARY.md");
const page = renderGlossary(glossary);
if (values.write) writeFileSync(mdPath, page);

let failed = false;
let current = "";
try {
  current = readFileSync(mdPath, "utf8");
} catch {}
if (current !== page) {
  console.error("locales/GLOSSARY.md is not generated from locales/glossary.json: run bun run i18n:glossary --write\n");
  failed = true;
}

const rows = readMessages(root);
const violations = checkGlossary(glossary, rows);
for (const v of violations) console.error(`${formatViolation(v)}\n`);
if (violations.length) {
  const byCheck = new Map<string, number>();
  for (const v of violations) byCheck.set(v.check, (byCheck.get(v.check) ?? 0) + 1);
  const summary = [...byCheck].map(([check, n]) => `${check} ${n}`).join(", ");
  console.error(`${violations.length} glossary problem(s): ${summary}`);
  failed = true;
}
if (failed) process.exit(1);
console.log(
  `Glossary followed: ${glossary.terms.length} terms and ${glossary.rules.length} rules over ${rows.length} messages, ${glossary.exceptions.length} exceptions.`,
);
