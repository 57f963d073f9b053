// JSON answers as UTF-8 bytes, written so that one non-Latin-1 name does not slow the whole page.
//
// JavaScriptCore (Bun's engine) builds JSON.stringify's text in Latin-1 until it meets a string that needs more, and
// then writes all of it in UTF-16, which the answer must turn back into UTF-8. One "Poznań", "Uhříněves" or Amharic
// address in a page of 50 loads doubles the cost of its JSON (bench/loads-http.ts). Long arrays are written here an
// element at a time, each turned into UTF-8 at once, so only the elements that need UTF-16 pay for it.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * JSON text written before (UTF-8), kept to be sent again: `jsonBytes` answers its bytes as they are, and anything
 * else that writes it (JSON.stringify, through toJSON) reads it back first. The board's page cache keeps pages so.
 */
export class RawJson {
  constructor(readonly bytes: Uint8Array<ArrayBuffer>) {}
  toJSON(): unknown {
    return JSON.parse(decoder.decode(this.bytes));
  }
}

/** Arrays at least this long are written an element at a time; shorter ones go whole. */
const SPLIT_FROM = 8;

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== "function";
};

/** Whether a value holds a long array in the part of it walked here (plain objects and arrays, no toJSON). */
const hasLongArray = (v: unknown, depth: number): boolean => {
  if (depth > 3) return false;
  if (Array.isArray(v)) return v.length >= SPLIT_FROM;
  if (!isPlainObject(v)) return false;
  for (const key in v) if (Object.hasOwn(v, key) && hasLongArray(v[key], depth + 1)) return true;
  return false;
};

/**
 * Pieces of the JSON text of `value`, in order: JSON.stringify's text for the value itself, unless it is an array or
 * plain object holding a long array, which is written out around its members. In an array a value JSON has no text for
 * (undefined, a function, a symbol) is null; in an object such a member is left out, as JSON.stringify does.
 */
const pieces = (value: unknown, out: string[], depth: number, inArray: boolean) => {
  if (!hasLongArray(value, depth)) {
    const text = JSON.stringify(value);
    out.push(text === undefined ? (inArray ? "null" : "") : text);
    return;
  }
  if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i) out.push(",");
      pieces(item, out, depth + 1, true);
    });
    out.push("]");
    return;
  }
  out.push("{");
  let first = true;
  for (const key in value as Record<string, unknown>) {
    if (!Object.hasOwn(value as object, key)) continue;
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    out.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    pieces(member, out, depth + 1, false);
  }
  out.push("}");
};

/** The JSON text of `value` in UTF-8, the same text JSON.stringify gives (an answer with no JSON text is `null`). */
export const jsonBytes = (value: unknown): Uint8Array<ArrayBuffer> => {
  if (value instanceof RawJson) return value.bytes;
  const out: string[] = [];
  pieces(value, out, 0, true);
  if (out.length === 1) return encoder.encode(out[0]);
  const parts = out.map((p) => encoder.encode(p));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return bytes;
};
