import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TMessageRow } from "./lib/catalogs";
import { checkGlossary, compileTerms, readGlossary, renderGlossary, type TGlossary } from "./lib/glossary";

setDefaultTimeout(60_000);

const glossary: TGlossary = {
  about: "Test glossary.",
  terms: [
    {
      term: "shipper",
      en: "\\bshippers?\\b",
      am: { use: "ላኪ", match: "ላኪ" },
      om: { use: "ergituu, pl. ergitoota", match: "ergit" },
      confidence: "H/M",
      note: "",
    },
    {
      term: "load",
      en: "\\bloads?\\b",
      am: { use: "ጭነት", match: "ጭነ[ትቶቱታ]" },
      om: { use: "fe'umsa", match: "fe'ums" },
      confidence: "H/M",
      note: "",
    },
  ],
  rules: [
    {
      id: "om-shipper-not-ergaa",
      lang: "om",
      pattern: "\\bergaa(n|f)?\\b",
      whenEn: "\\bshippers?\\b",
      unlessEn: "\\bmessag",
      reason: "ergaa is a message.",
    },
    { id: "om-plural", lang: "om", words: ["kee", "galchi"], reason: "plural-polite." },
    { id: "am-polite", lang: "am", words: ["ግባ"], reason: "polite imperative." },
  ],
  exceptions: [],
};

const row = (
  id: string,
  english: string,
  am: string,
  om: string,
  set: "shell" | "app" = "shell",
  comments = ["Where it appears and what it means"],
): TMessageRow => ({ set, id, english, am, om, comments, origins: [] });

describe("checkGlossary", () => {
  test("a message whose English has a term but whose translation lacks it is reported, with id, texts and term", () => {
    const v = checkGlossary(glossary, [row("a", "Rate the shipper", "ለላኪው ደረጃ ይስጡ", "Ergaa madaali")]);
    expect(v).toHaveLength(2);
    const missing = v.find((x) => x.check === "shipper")!;
    expect(missing).toMatchObject({ set: "shell", id: "a", lang: "om", english: "Rate the shipper" });
    expect(missing.translation).toBe("Ergaa madaali");
    expect(missing.problem).toContain("ergituu");
    expect(v.find((x) => x.check === "om-shipper-not-ergaa")!.problem).toContain('"Ergaa"');
  });

  test("inflected forms of an accepted stem pass, in both languages", () => {
    const v = checkGlossary(glossary, [
      row("b", "For shippers", "ለላኪዎች", "Ergitootaaf"),
      row("c", "Your loads", "ጭነቶችዎ", "Fe'umsa keessan"),
      row("d", "Load cancelled", "ጭነቱ ተሰርዟል", "Fe'umsi haqameera"),
    ]);
    expect(v).toEqual([]);
  });

  test("a placeholder named like a term is not the term", () => {
    expect(checkGlossary(glossary, [row("e", "{load} was cancelled", "{load} ተሰርዟል", "{load} haqameera")])).toEqual([]);
  });

  test("a rule's unlessEn spares the messages it names", () => {
    const v = checkGlossary(glossary, [row("f", "Message the shipper", "ለላኪው መልእክት ይላኩ", "Ergituuf ergaa ergaa")]);
    expect(v).toEqual([]);
  });

  test("whole-word rules catch the word and not longer words containing it", () => {
    const v = checkGlossary(glossary, [
      row("g", "Enter your email", "ኢሜይልዎን ያስገቡ", "Imeelii kee galchi"),
      row("h", "Enter your email", "ኢሜይልዎን ያስገቡ", "Imeelii keessan galchaa"),
      row("i", "Log in", "ግባ", "Seenaa"),
      row("j", "Sign in", "ይግቡ", "Seenaa"),
    ]);
    expect(v.map((x) => `${x.id} ${x.lang} ${x.check} ${x.problem.split(":")[0]}`)).toEqual([
      'g om om-plural "kee", "galchi"',
      'i am am-polite "ግባ"',
    ]);
  });

  test("an exception excuses its message, language and check only", () => {
    const withException: TGlossary = {
      ...glossary,
      exceptions: [{ set: "shell", id: "k", lang: "om", check: "shipper", reason: "a CLI flag value" }],
    };
    const v = checkGlossary(withException, [
      row("k", "--role must be driver or shipper", "--role driver ወይም shipper መሆን አለበት", "--role driver ykn shipper"),
    ]);
    expect(v.map((x) => `${x.id} ${x.lang} ${x.check}`)).toEqual(["k am shipper"]);
  });

  test("an exception that excuses nothing, or names no term or rule, is reported", () => {
    const stale: TGlossary = {
      ...glossary,
      exceptions: [
        { set: "shell", id: "l", lang: "om", check: "shipper", reason: "was needed once" },
        { set: "shell", id: "l", lang: "am", check: "no-such-rule", reason: "typo" },
      ],
    };
    const v = checkGlossary(stale, [row("l", "For shippers", "ለላኪዎች", "Ergitootaaf")]);
    expect(v.map((x) => x.problem)).toEqual([
      'the exception names "no-such-rule", which is neither a term nor a rule',
      expect.stringContaining("no longer excuses anything"),
    ]);
  });

  test("a message of one or two words without a translator comment is reported; longer ones and plurals are not", () => {
    const v = checkGlossary(glossary, [
      row("n", "Rate", "ዋጋ", "Gatii", "app", []),
      row("o", "{0} trips", "{0} ጉዞዎች", "Imala {0}", "app", ["placeholder {0}: bid.trips"]),
      row("p", "Rate", "ዋጋ", "Gatii", "app", ["Column header: the price offered for the load"]),
      row("q", "Compare prices from three carriers.", "…", "…", "app", []),
      row("r", "{n, plural, one {# order} other {# orders}}", "…", "…", "app", []),
    ]);
    expect(v.map((x) => `${x.id} ${x.lang} ${x.check}`)).toEqual(["n en needs-comment", "o en needs-comment"]);
  });

  test("a message in both catalog sets must be translated the same in both", () => {
    const v = checkGlossary(glossary, [
      row("m", "Premium", "ፕሪሚየም", "Pireemiyemii", "shell"),
      row("m", "Premium", "ፕሪሚየም", "Priimiyeemii", "app"),
    ]);
    expect(v).toEqual([expect.objectContaining({ set: "app", id: "m", lang: "om", check: "same-in-both-sets" })]);
  });
});

describe("the project's glossary", () => {
  const real = readGlossary();

  test("terms and rules have unique names, and every term accepts its own recommended form", () => {
    const names = [...real.terms.map((t) => t.term), ...real.rules.map((r) => `${r.id}/${r.lang}`)];
    expect(new Set(names).size).toBe(names.length);
    for (const t of compileTerms(real)) {
      expect({ term: t.term, am: t.matchRe.am.test(t.am.use) }).toEqual({ term: t.term, am: true });
      expect({ term: t.term, om: t.matchRe.om.test(t.om.use) }).toEqual({ term: t.term, om: true });
    }
  });

  test("GLOSSARY.md is generated from glossary.json", () => {
    expect(readFileSync(join(import.meta.dir, "..", "locales", "GLOSSARY.md"), "utf8")).toBe(renderGlossary(real));
  });
});

describe("bun run i18n:glossary", () => {
  const po = (locale: string, entries: [string, string][]) =>
    [
      'msgid ""',
      'msgstr ""',
      `"Language: ${locale}\\n"`,
      "",
      ...entries.flatMap(([id, text]) => [
        "#. Where it appears and what it means",
        "#. js-lingui-explicit-id",
        "#: src/x.ts",
        `msgid ${JSON.stringify(id)}`,
        `msgstr ${JSON.stringify(text)}`,
        "",
      ]),
    ].join("\n");

  const fixture = (om: string) => {
    const dir = mkdtempSync(join(tmpdir(), "glossary-"));
    mkdirSync(join(dir, "app"));
    for (const sub of ["", "app"]) {
      const ids: [string, string, string, string][] =
        sub === "" ? [["role.shipper", "Shipper", "ላኪ", om]] : [["app.loads", "Loads", "ጭነቶች", "Fe'umsa"]];
      writeFileSync(
        join(dir, sub, "en.po"),
        po(
          "en",
          ids.map(([id, en]) => [id, en]),
        ),
      );
      writeFileSync(
        join(dir, sub, "am.po"),
        po(
          "am",
          ids.map(([id, , am]) => [id, am]),
        ),
      );
      writeFileSync(
        join(dir, sub, "om.po"),
        po(
          "om",
          ids.map(([id, , , o]) => [id, o]),
        ),
      );
    }
    writeFileSync(join(dir, "glossary.json"), JSON.stringify(glossary));
    writeFileSync(join(dir, "GLOSSARY.md"), renderGlossary(glossary));
    return dir;
  };
  const run = (dir: string) => {
    const p = Bun.spawnSync(["bun", join(import.meta.dir, "check-glossary.ts"), "--locales", dir], {
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };

  test("fails with a readable list naming the message, its texts and the missing term", () => {
    const dir = fixture("Ergaa");
    try {
      const { code, err } = run(dir);
      expect(code).toBe(1);
      expect(err).toContain('locales/om.po "role.shipper" [shipper]');
      expect(err).toContain("English:     Shipper");
      expect(err).toContain("Translation: Ergaa");
      expect(err).toContain('"shipper" should be ergituu, pl. ergitoota');
      expect(err).toContain("2 glossary problem(s): shipper 1, om-shipper-not-ergaa 1");
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  test("passes once the translation follows the glossary, and fails again when GLOSSARY.md falls behind", () => {
    const dir = fixture("Ergituu");
    try {
      expect(run(dir)).toMatchObject({ code: 0, out: expect.stringContaining("Glossary followed") });
      const changed = { ...glossary, about: "Changed." };
      writeFileSync(join(dir, "glossary.json"), JSON.stringify(changed));
      const stale = run(dir);
      expect(stale.code).toBe(1);
      expect(stale.err).toContain("GLOSSARY.md is not generated from locales/glossary.json");
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
