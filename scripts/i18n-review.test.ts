import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { catalogPath, readCatalog } from "./lib/catalogs";
import { renderGlossary, type TGlossary } from "./lib/glossary";
import { parseCsv, toCsv } from "./lib/review";

setDefaultTimeout(60_000);

// A small locales folder: two messages in the shell (one with a placeholder, one with a tag), one in the app, and one
// in both.
const glossary: TGlossary = {
  about: "Test glossary.",
  terms: [
    {
      term: "shipper",
      en: "\\bshippers?\\b",
      am: { use: "ላኪ", match: "ላኪ" },
      om: { use: "ergituu", match: "ergit" },
      confidence: "H/M",
      note: "",
    },
  ],
  rules: [],
  exceptions: [],
};

type TEntry = { id: string; en: string; am: string; om: string; comment?: string; origin: string };
const shell: TEntry[] = [
  {
    id: "notify.loadCancelled.body",
    en: "{load} was cancelled by the shipper.",
    am: "{load} በላኪው ተሰርዟል።",
    om: "{load} ergituudhaan haqameera.",
    origin: "src/server/domain/push/notify.ts",
  },
  {
    id: "terms.read",
    en: "Read our <0>privacy notice</0>.",
    am: "<0>የግላዊነት ማስታወቂያችንን</0> ያንብቡ።",
    om: "<0>Beeksisa dhuunfummaa</0> keenya dubbisaa.",
    origin: "src/web/routes/privacy.tsx",
  },
  {
    id: "common.cancel",
    en: "Cancel",
    am: "ይቅር",
    om: "Dhiisaa",
    comment: "Dialog button: close without doing anything",
    origin: "src/web/components/ui/dialog.tsx",
  },
];
const app: TEntry[] = [
  {
    id: "load.rate",
    en: "Rate",
    am: "ዋጋ",
    om: "Gatii",
    comment: "Column on the load board: the price offered for the load",
    origin: "src/web/routes/loads.tsx",
  },
  {
    id: "common.cancel",
    en: "Cancel",
    am: "ይቅር",
    om: "Dhiisaa",
    comment: "Dialog button: close without doing anything",
    origin: "src/web/components/loads/form.tsx",
  },
];

const po = (locale: string, entries: TEntry[]) =>
  [
    'msgid ""',
    'msgstr ""',
    '"MIME-Version: 1.0\\n"',
    '"Content-Type: text/plain; charset=utf-8\\n"',
    '"Content-Transfer-Encoding: 8bit\\n"',
    '"X-Generator: @lingui/cli\\n"',
    `"Language: ${locale}\\n"`,
    "",
    ...entries.flatMap((e) => [
      ...(e.comment ? [`#. ${e.comment}`] : []),
      "#. js-lingui-explicit-id",
      `#: ${e.origin}`,
      `msgid ${JSON.stringify(e.id)}`,
      `msgstr ${JSON.stringify(locale === "en" ? e.en : e[locale as "am" | "om"])}`,
      "",
    ]),
  ].join("\n");

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "review-"));
  mkdirSync(join(root, "app"));
  for (const locale of ["en", "am", "om"]) {
    writeFileSync(join(root, `${locale}.po`), po(locale, shell));
    writeFileSync(join(root, "app", `${locale}.po`), po(locale, app));
  }
  writeFileSync(join(root, "glossary.json"), JSON.stringify(glossary));
  writeFileSync(join(root, "GLOSSARY.md"), renderGlossary(glossary));
});
afterEach(() => rmSync(root, { recursive: true }));

const review = (...args: string[]) => {
  const p = Bun.spawnSync(["bun", join(import.meta.dir, "i18n-review.ts"), ...args, "--locales", root], {
    stdout: "pipe",
    stderr: "pipe",
    cwd: root,
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

/** The exported file with `corrected` filled in on the rows whose id is given. */
const exportWith = (lang: "am" | "om", corrections: Record<string, string>) => {
  const file = join(root, `review-${lang}.csv`);
  expect(review(lang, "--out", file).code).toBe(0);
  const [header, ...rows] = parseCsv(readFileSync(file, "utf8"));
  const id = header.indexOf("id");
  const corrected = header.indexOf(`corrected translation (${lang})`);
  for (const row of rows) if (row[id] in corrections) row[corrected] = corrections[row[id]];
  writeFileSync(file, toCsv([header, ...rows]));
  return file;
};

describe("bun run i18n:review", () => {
  test("writes a spreadsheet-friendly file: BOM, one row per message, comment, origin and glossary terms", () => {
    const file = join(root, "am.csv");
    const { code, out } = review("am", "--out", file);
    expect(code).toBe(0);
    expect(out).toContain("4 Amharic messages written");
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "catalog",
      "id",
      "English",
      "comment (what and where)",
      "where it appears",
      "glossary terms",
      "glossary check",
      "current translation (am)",
      "corrected translation (am)",
    ]);
    const byId = Object.fromEntries(rows.map((r) => [r[1], r]));
    expect(byId["notify.loadCancelled.body"]).toEqual([
      "shell",
      "notify.loadCancelled.body",
      "{load} was cancelled by the shipper.",
      "",
      "src/server/domain/push/notify.ts",
      "shipper = ላኪ",
      "",
      "{load} በላኪው ተሰርዟል።",
      "",
    ]);
    expect(byId["load.rate"][3]).toBe("Column on the load board: the price offered for the load");
    // A message both catalog sets carry is one row, with both origins.
    expect(byId["common.cancel"].slice(0, 5)).toEqual([
      "shell app",
      "common.cancel",
      "Cancel",
      "Dialog button: close without doing anything",
      "src/web/components/ui/dialog.tsx, src/web/components/loads/form.tsx",
    ]);
  });

  test("round trip: a corrected row lands in its catalog, in both sets when both carry it, and the checks run", () => {
    const shellBefore = readFileSync(catalogPath(root, "shell", "om"), "utf8");
    const file = exportWith("om", { "load.rate": "Gatii fe'umsaa", "common.cancel": "Haqaa" });
    const { code, out } = review("om", "--apply", file);
    expect({ code, out }).toMatchObject({ code: 0, out: expect.stringContaining("2 translation(s) written") });
    expect(out).toContain("Catalogs complete");
    expect(out).toContain("Glossary followed");
    expect(readCatalog(catalogPath(root, "app", "om"))["load.rate"].translation).toBe("Gatii fe'umsaa");
    expect(readCatalog(catalogPath(root, "app", "om"))["common.cancel"].translation).toBe("Haqaa");
    expect(readCatalog(catalogPath(root, "shell", "om"))["common.cancel"].translation).toBe("Haqaa");
    // Untouched: the other language, the other messages, and the comment and origin lines.
    expect(readFileSync(catalogPath(root, "shell", "om"), "utf8")).toBe(
      shellBefore.replace('msgstr "Dhiisaa"', 'msgstr "Haqaa"'),
    );
    expect(readCatalog(catalogPath(root, "app", "am"))["load.rate"].translation).toBe("ዋጋ");
    expect(readFileSync(catalogPath(root, "app", "om"), "utf8")).toContain(
      '#. Column on the load board: the price offered for the load\n#. js-lingui-explicit-id\n#: src/web/routes/loads.tsx\nmsgid "load.rate"',
    );
  });

  test("a row whose correction breaks a placeholder or a tag is refused by line and id, and nothing is written", () => {
    const before = readFileSync(catalogPath(root, "shell", "am"), "utf8");
    const beforeApp = readFileSync(catalogPath(root, "app", "am"), "utf8");
    const file = exportWith("am", {
      "load.rate": "የጭነቱ ዋጋ",
      "notify.loadCancelled.body": "{lod} በላኪው ተሰርዟል።",
      "terms.read": "<0>የግላዊነት ማስታወቂያችንን ያንብቡ።",
    });
    const { code, err } = review("am", "--apply", file);
    expect(code).toBe(1);
    const lines = parseCsv(readFileSync(file, "utf8")).map((r) => r[1]);
    expect(err).toContain(
      `Line ${lines.indexOf("notify.loadCancelled.body") + 1} (notify.loadCancelled.body): placeholders differ: English has {load}, the translation {lod}`,
    );
    expect(err).toContain(
      `Line ${lines.indexOf("terms.read") + 1} (terms.read): tags differ: English has <0></0>, the translation <0>`,
    );
    expect(err).toContain("2 row(s) refused; nothing was written");
    expect(readFileSync(catalogPath(root, "shell", "am"), "utf8")).toBe(before);
    expect(readFileSync(catalogPath(root, "app", "am"), "utf8")).toBe(beforeApp);
  });

  test("a correction that departs from the glossary is written, and the glossary check's failure is reported", () => {
    const file = exportWith("om", { "notify.loadCancelled.body": "{load} ergaan haqameera." });
    const { code, out, err } = review("om", "--apply", file);
    expect(code).toBe(1);
    expect(out).toContain("1 translation(s) written");
    expect(err).toContain('locales/om.po "notify.loadCancelled.body" [shipper]');
    expect(err).toContain("The corrections are written, but a check failed");
    expect(readCatalog(catalogPath(root, "shell", "om"))["notify.loadCancelled.body"].translation).toBe(
      "{load} ergaan haqameera.",
    );
  });

  test("a file saved by a spreadsheet with semicolons and no quotes is read; a file of the other language is refused", () => {
    const file = join(root, "excel.csv");
    writeFileSync(file, "\uFEFFcatalog;id;English;corrected translation (om)\r\napp;load.rate;Rate;Gatii fe'umsaa\r\n");
    expect(review("om", "--apply", file).code).toBe(0);
    expect(readCatalog(catalogPath(root, "app", "om"))["load.rate"].translation).toBe("Gatii fe'umsaa");
    const wrong = review("am", "--apply", file);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("This file is for another language (corrected translation (om)), not am.");
  });

  test("a row whose English changed since the export, or naming an unknown id, is refused", () => {
    const file = join(root, "old.csv");
    writeFileSync(
      file,
      toCsv([
        ["catalog", "id", "English", "corrected translation (am)"],
        ["app", "load.rate", "Price", "ዋጋ"],
        ["shell", "gone.message", "Gone", "የለም"],
      ]),
    );
    const { code, err } = review("am", "--apply", file);
    expect(code).toBe(1);
    expect(err).toContain('Line 2 (load.rate): the English has changed since the file was written (now "Rate")');
    expect(err).toContain("Line 3 (gone.message): no message with this id in the shell catalog");
  });
});
