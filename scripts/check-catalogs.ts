// Fails when a catalog lacks a translation, or a translation loses or invents a {placeholder}. Checks both catalog
// sets: the shell (locales/) and the signed-in app (locales/app/).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatter } from "@lingui/format-po";

type TEntry = { message?: string; translation?: string };
const root = join(import.meta.dir, "..", "locales");
// A placeholder is `{name}` or the start of `{name, plural|select …}`; the text of a plural branch (`{Every # minute}`)
// is not one.
const placeholders = (s: string) =>
  [...s.matchAll(/\{(\w+)\s*[,}]/g)]
    .map((m) => m[1])
    .sort()
    .join(",");

let problems = 0;
let total = 0;
for (const dir of [root, join(root, "app")]) {
  const read = (l: string) =>
    formatter().parse(readFileSync(join(dir, `${l}.po`), "utf8"), {} as never) as Record<string, TEntry>;
  const en = read("en");
  total += Object.keys(en).length;
  for (const locale of ["am", "om"]) {
    const catalog = read(locale);
    for (const [id, entry] of Object.entries(en)) {
      const source = entry.translation || entry.message || id;
      const translated = catalog[id]?.translation;
      if (!translated) {
        console.error(`${dir}/${locale}: missing translation for ${JSON.stringify(source)}`);
        problems++;
      } else if (placeholders(translated) !== placeholders(source)) {
        console.error(
          `${dir}/${locale}: placeholders differ for ${JSON.stringify(source)}: ${JSON.stringify(translated)}`,
        );
        problems++;
      }
    }
  }
}
if (problems) {
  console.error(`${problems} catalog problem(s) across am and om (${total} messages).`);
  process.exit(1);
}
console.log(`Catalogs complete: ${total} messages in en, am and om.`);
