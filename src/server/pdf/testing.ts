// For tests: what a reader would get out of a PDF the server made.
import { extractText, getDocumentProxy } from "unpdf";

/** The text a PDF reader would copy out of the file, every page joined, runs of white space made one space. */
export const pdfText = async (bytes: Uint8Array) => {
  const proxy = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(proxy, { mergePages: true });
  return text.replace(/\s+/g, " ");
};

/** The names of the fonts the file embeds (a subset's "ABCDEF+" prefix taken off), sorted. */
export const embeddedFonts = (bytes: Uint8Array) => {
  const raw = Buffer.from(bytes).toString("latin1");
  return [...new Set([...raw.matchAll(/\/BaseFont \/(?:[A-Z]{6}\+)?([A-Za-z0-9-]+)/g)].map((m) => m[1]!))].sort();
};
