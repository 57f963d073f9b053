// Documents the server hands out as PDF (the rate confirmation, payment receipts), drawn in the reader's language:
// Amharic and Afaan Oromo text mixes Ethiopic script with Latin letters and digits (names, places, amounts), and no
// one font covers both well, so every piece of text is cut into runs by script and each run is drawn with its own
// font (Noto Sans Ethiopic or Noto Sans, shipped in `fonts/` under the OFL). pdfkit embeds a subset of each font
// with its ToUnicode map, so the text can be searched and copied out of the file.
import { join } from "node:path";
import PDFDocument from "pdfkit";
import type { TLanguage } from "../../shared/constants";
import { formatDate, type TCalendar } from "../../shared/dates";
import { formatMoney, fromMinor } from "../../shared/money";

const FONTS_DIR = join(import.meta.dir, "fonts");
const FONT_FILES = {
  latin: "NotoSans-Regular.ttf",
  latinBold: "NotoSans-Bold.ttf",
  ethiopic: "NotoSansEthiopic-Regular.ttf",
  ethiopicBold: "NotoSansEthiopic-Bold.ttf",
} as const;
type TFont = keyof typeof FONT_FILES;

/** Who reads the document: its language, calendar and time zone decide how text, dates and money are written. */
export type TPdfReader = { language: TLanguage; calendar: TCalendar; timeZone?: string };

const MONEY_LOCALE: Record<TLanguage, string> = { en: "en-US", am: "am-ET", om: "en-GB" };

// Ethiopic, Ethiopic Supplement, Ethiopic Extended and Extended-A.
const ETHIOPIC = /[\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f]/;

/**
 * Text cut into runs of one script each. Spaces stay with the run they follow; Latin punctuation and digits go to the
 * Latin font, since Noto Sans Ethiopic has no full stop (an abbreviated era, "ዓ.ም.", would lose its dots).
 */
export const scriptRuns = (text: string): { text: string; ethiopic: boolean }[] => {
  const runs: { text: string; ethiopic: boolean }[] = [];
  for (const ch of text) {
    const ethiopic = ETHIOPIC.test(ch);
    const neutral = /\s/.test(ch);
    const last = runs[runs.length - 1];
    if (last && (last.ethiopic === ethiopic || neutral)) last.text += ch;
    else runs.push({ text: ch, ethiopic });
  }
  return runs;
};

const MARGIN = 50;
const COLORS = { text: "#111827", muted: "#4b5563", rule: "#d1d5db", band: "#f3f4f6" };

export type TPdfTable = { columns: { header: string; width: number; align?: "left" | "right" }[]; rows: string[][] };

/**
 * A document being drawn, top to bottom: `title`, `heading`, `rows` (label and value), `table`, `paragraph`, then
 * `finish()` for the file's bytes. `money` and `date` write amounts and dates the way the reader reads them.
 */
export type TPdf = {
  reader: TPdfReader;
  title: (text: string, subtitle?: string) => void;
  heading: (text: string) => void;
  rows: (rows: [label: string, value: string][]) => void;
  table: (table: TPdfTable) => void;
  paragraph: (text: string, options?: { muted?: boolean; size?: number }) => void;
  space: (lines?: number) => void;
  money: (minor: number, currency: string) => string;
  date: (value: Date | string | number, withTime?: boolean) => string;
  finish: () => Promise<Uint8Array<ArrayBuffer>>;
};

export const createPdf = (reader: TPdfReader, info: { title: string; author?: string }): TPdf => {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    // The first font given here means pdfkit never loads its built-in Helvetica (which has no Ethiopic).
    font: join(FONTS_DIR, FONT_FILES.latin),
    info: { Title: info.title, Author: info.author ?? "MyTess", Producer: "MyTess", Creator: "MyTess" },
    lang: reader.language,
    displayTitle: true,
    bufferPages: true,
  });
  for (const [name, file] of Object.entries(FONT_FILES)) doc.registerFont(name, join(FONTS_DIR, file));
  const chunks: Uint8Array[] = [];
  doc.on("data", (c: Uint8Array) => chunks.push(c));
  const done = new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });
  const width = doc.page.width - 2 * MARGIN;

  const fontFor = (ethiopic: boolean, bold: boolean): TFont =>
    ethiopic ? (bold ? "ethiopicBold" : "ethiopic") : bold ? "latinBold" : "latin";

  /** Text at (x, y) within `w`, each script run in its font; returns the height it took. */
  const write = (
    text: string,
    opts: { x: number; y?: number; w: number; size: number; bold?: boolean; color?: string; align?: "left" | "right" },
  ) => {
    const runs = scriptRuns(text.length ? text : " ");
    const startY = opts.y ?? doc.y;
    doc.fillColor(opts.color ?? COLORS.text).fontSize(opts.size);
    runs.forEach((run, i) => {
      doc.font(fontFor(run.ethiopic, opts.bold ?? false));
      const continued = i < runs.length - 1;
      const o = { width: opts.w, align: opts.align ?? "left", continued, lineGap: 2 };
      if (i === 0) doc.text(run.text, opts.x, startY, o);
      else doc.text(run.text, o);
    });
    return doc.y - startY;
  };

  /** The height `text` would take in `w`: the taller of its two fonts, so mixed text never overlaps the next row. */
  const heightOf = (text: string, w: number, size: number, bold = false) => {
    doc.fontSize(size);
    let h = 0;
    for (const ethiopic of [false, true]) {
      doc.font(fontFor(ethiopic, bold));
      h = Math.max(h, doc.heightOfString(text.length ? text : " ", { width: w, lineGap: 2 }));
    }
    return h;
  };

  const ensureRoom = (h: number) => {
    if (doc.y + h > doc.page.height - MARGIN) doc.addPage();
  };

  const rule = () => {
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + width, doc.y)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
  };

  return {
    reader,
    title: (text, subtitle) => {
      write(text, { x: MARGIN, w: width, size: 20, bold: true });
      if (subtitle) write(subtitle, { x: MARGIN, w: width, size: 10, color: COLORS.muted });
      doc.moveDown(0.5);
      rule();
      doc.moveDown(0.8);
    },
    heading: (text) => {
      ensureRoom(40);
      doc.moveDown(0.4);
      write(text, { x: MARGIN, w: width, size: 13, bold: true });
      doc.moveDown(0.3);
    },
    rows: (rows) => {
      const labelW = Math.round(width * 0.34);
      const valueW = width - labelW - 10;
      for (const [label, value] of rows) {
        const h = Math.max(heightOf(label, labelW, 10), heightOf(value, valueW, 10, true)) + 4;
        ensureRoom(h);
        const y = doc.y;
        write(label, { x: MARGIN, y, w: labelW, size: 10, color: COLORS.muted });
        write(value, { x: MARGIN + labelW + 10, y, w: valueW, size: 10, bold: true });
        doc.x = MARGIN;
        doc.y = y + h;
      }
    },
    table: ({ columns, rows }) => {
      const total = columns.reduce((s, c) => s + c.width, 0);
      const widths = columns.map((c) => (c.width / total) * width);
      const line = (cells: string[], bold: boolean) => {
        const h = Math.max(...cells.map((c, i) => heightOf(c, widths[i]! - 8, 9.5, bold))) + 6;
        ensureRoom(h);
        const y = doc.y;
        if (bold) doc.rect(MARGIN, y, width, h).fill(COLORS.band);
        let x = MARGIN;
        cells.forEach((c, i) => {
          write(c, { x: x + 4, y: y + 3, w: widths[i]! - 8, size: 9.5, bold, align: columns[i]?.align });
          x += widths[i]!;
        });
        doc.x = MARGIN;
        doc.y = y + h;
        rule();
      };
      line(
        columns.map((c) => c.header),
        true,
      );
      for (const r of rows) line(r, false);
      doc.moveDown(0.5);
    },
    paragraph: (text, options) => {
      const size = options?.size ?? 10;
      ensureRoom(heightOf(text, width, size));
      write(text, { x: MARGIN, w: width, size, color: options?.muted ? COLORS.muted : COLORS.text });
      doc.moveDown(0.4);
    },
    space: (lines = 1) => {
      doc.moveDown(lines);
    },
    money: (minor, currency) => formatMoney(fromMinor(minor, currency), currency, MONEY_LOCALE[reader.language]),
    date: (value, withTime = false) =>
      formatDate(value, {
        language: reader.language,
        calendar: reader.calendar,
        timeZone: reader.timeZone,
        dateStyle: "long",
        ...(withTime ? { timeStyle: "short" as const } : {}),
      }),
    finish: () => {
      doc.end();
      return done;
    },
  };
};
