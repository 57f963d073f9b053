import { describe, expect, test } from "bun:test";
import { createPdf, scriptRuns } from "./pdf";
import { embeddedFonts, pdfText } from "./testing";

describe("PDF documents", () => {
  test("scriptRuns cuts mixed text into Ethiopic and Latin runs; spaces stay with the run before, Latin punctuation goes to the Latin font", () => {
    expect(scriptRuns("ዋጋ: ETB 1,200 ብር")).toEqual([
      { text: "ዋጋ", ethiopic: true },
      { text: ": ETB 1,200 ", ethiopic: false },
      { text: "ብር", ethiopic: true },
    ]);
    expect(scriptRuns("ዓ.ም.")).toEqual([
      { text: "ዓ", ethiopic: true },
      { text: ".", ethiopic: false },
      { text: "ም", ethiopic: true },
      { text: ".", ethiopic: false },
    ]);
    expect(scriptRuns("Addis Ababa")).toEqual([{ text: "Addis Ababa", ethiopic: false }]);
  });

  test("Amharic text is drawn with the Ethiopic font and can be read back out of the file", async () => {
    const pdf = createPdf({ language: "am", calendar: "ethiopic", timeZone: "Africa/Addis_Ababa" }, { title: "ሙከራ" });
    pdf.title("የዋጋ ማረጋገጫ", "ጭነት #42");
    pdf.rows([
      ["ላኪ", "Abebe Kebede"],
      ["የተስማማው ዋጋ", pdf.money(1_250_000, "ETB")],
      ["የመጫኛ ቀን", pdf.date("2026-11-23T09:00:00Z")],
    ]);
    pdf.table({
      columns: [
        { header: "ከ", width: 1 },
        { header: "ወደ", width: 1 },
      ],
      rows: [["አዲስ አበባ", "Dire Dawa ድሬዳዋ"]],
    });
    pdf.paragraph("ሁለቱም ወገኖች በዚህ ስምምነት ተስማምተዋል።");
    const bytes = await pdf.finish();
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(embeddedFonts(bytes)).toEqual([
      "NotoSans-Bold",
      "NotoSans-Regular",
      "NotoSansEthiopic-Bold",
      "NotoSansEthiopic-Regular",
    ]);
    const text = await pdfText(bytes);
    for (const piece of [
      "የዋጋ ማረጋገጫ",
      "ጭነት #42",
      "Abebe Kebede",
      "ብር 12,500.00",
      "14 ኅዳር 2019 ዓ.ም.",
      "አዲስ አበባ",
      "ድሬዳዋ",
      "ተስማምተዋል።",
    ])
      expect(text).toContain(piece);
  });

  test("dates follow the reader's calendar and language, money the reader's language", () => {
    const am = createPdf({ language: "am", calendar: "ethiopic" }, { title: "t" });
    const om = createPdf({ language: "om", calendar: "gregorian" }, { title: "t" });
    const en = createPdf({ language: "en", calendar: "gregorian", timeZone: "UTC" }, { title: "t" });
    expect(am.date("2026-11-23T09:00:00Z")).toBe("14 ኅዳር 2019 ዓ.ም.");
    expect(om.date("2026-11-23T09:00:00Z")).toBe("23 Sadaasa 2026");
    expect(en.date("2026-11-23T09:00:00Z")).toBe("November 23, 2026");
    expect(am.money(1_250_000, "ETB")).toBe("ብር 12,500.00");
    expect(om.money(1_250_000, "ETB")).toBe("Br 12,500.00");
    expect(en.money(80_000, "USD")).toBe("$800.00");
  });
});
