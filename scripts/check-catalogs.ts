// Fails when a catalog lacks a translation, or a translation loses or invents a {placeholder}.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatter } from "@lingui/format-po";

type TEntry = { message?: string; translation?: string };
const dir = join(import.meta.dir, "..", "locales");
const read = (l: string) =>
  formatter().parse(readFileSync(join(dir, `${l}.po`), "utf8"), {} as never) as Record<string, TEntry>;
const placeholders = (s: string) =>
  [...s.matchAll(/\{(\w+)/g)]
    .map((m) => m[1])
    .sort()
    .join(",");

const en = read("en");
let problems = 0;
for (const locale of ["am", "om"]) {
  const catalog = read(locale);
  for (const [id, entry] of Object.entries(en)) {
    const source = entry.translation || entry.message || id;
    const translated = catalog[id]?.translation;
    if (!translated) {
      console.error(`${locale}: missing translation for ${JSON.stringify(source)}`);
      problems++;
    } else if (placeholders(translated) !== placeholders(source)) {
      console.error(`${locale}: placeholders differ for ${JSON.stringify(source)}: ${JSON.stringify(translated)}`);
      problems++;
    }
  }
}
const total = Object.keys(en).length;
if (problems) {
  console.error(`${problems} catalog problem(s) across am and om (${total} messages).`);
  process.exit(1);
}
console.log(`Catalogs complete: ${total} messages in en, am and om.`);
