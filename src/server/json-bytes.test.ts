import { describe, expect, test } from "bun:test";
import { jsonBytes } from "./json-bytes";

const text = (value: unknown) => new TextDecoder("utf-8", { fatal: true }).decode(jsonBytes(value));

const load = (i: number, city: string) => ({
  id: i,
  title: `Load ${i}`,
  description: i % 3 ? null : 'Fragile "glass"\n\tback\\slash',
  pickupCity: city,
  pickupLatitude: 52.40692 + i / 1e6,
  pickupDate: new Date(Date.UTC(2026, 10, 24, 6, i)),
  weight: i * 1000,
  isUrgent: i % 2 === 0,
  distance: i % 4 ? 12.3 : null,
  source: { type: "mytess", provider: null, contact: i % 5 ? null : { phone: "+251 911 000 000" } },
  board: null,
  note: undefined,
});

describe("jsonBytes", () => {
  test("a page of loads with Latin-1, Polish, Czech and Amharic names is JSON.stringify's text in UTF-8", () => {
    const cities = ["Newark", "München", "Poznań", "Uhříněves", "አዲስ አበባ", "Adama", "Bishoftu 🚚"];
    const page = Array.from({ length: 50 }, (_, i) => load(i, cities[i % cities.length]));
    for (const value of [page, { items: page, page: 1, pageSize: 50, hasMore: true, boards: [] }]) {
      expect(text(value)).toBe(JSON.stringify(value));
      expect(JSON.parse(text(value))).toEqual(JSON.parse(JSON.stringify(value)));
    }
  });

  test("members JSON has no text for are left out of objects and are null in arrays, as JSON.stringify does", () => {
    const long = [1, undefined, () => 1, Symbol("s"), null, "x", 3, 4, 5, { a: undefined, b: 2 }];
    const value = { skip: undefined, fn: () => 1, sym: Symbol("s"), long, after: "ok" };
    expect(text(value)).toBe(JSON.stringify(value));
    expect(text(value)).toContain('"long":[1,null,null,null,null,"x"');
    expect(text(value)).not.toContain("skip");
  });

  test("objects with toJSON, null prototypes, nested long arrays and short arrays keep their JSON text", () => {
    const bare = Object.assign(Object.create(null), { rows: Array.from({ length: 9 }, (_, i) => ({ i, s: "ř" })) });
    const withToJson = { toJSON: () => ({ replaced: Array.from({ length: 10 }, (_, i) => i) }) };
    const value = {
      bare,
      withToJson,
      dates: Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 0, i + 1))),
      short: [1, "ñ", "ሀ"],
      deep: { a: { b: { c: Array.from({ length: 20 }, (_, i) => `ő${i}`) } } },
    };
    expect(text(value)).toBe(JSON.stringify(value));
  });

  test("single values and empty structures", () => {
    for (const value of [null, 0, -1.5, "Addis Ababa", "ኢትዮጵያ", true, [], {}, { a: [] }, Array(8).fill(null)])
      expect(text(value)).toBe(JSON.stringify(value));
    // An answer with no JSON text of its own is null, not an empty body.
    expect(text(undefined)).toBe("null");
  });
});
