import { describe, expect, test } from "bun:test";
import { quietUntil } from "./push";

const at = (iso: string) => Date.parse(iso);
const q = (start: string, end: string, timezone = "UTC", enabled = true) => ({ enabled, start, end, timezone });

describe("quiet hours", () => {
  test("across midnight: held from start until end, in the user's time zone", () => {
    expect(quietUntil(q("22:00", "08:00"), at("2026-11-22T23:10:30Z"))).toBe(at("2026-11-23T08:00:00Z"));
    expect(quietUntil(q("22:00", "08:00"), at("2026-11-22T03:00:00Z"))).toBe(at("2026-11-22T08:00:00Z"));
    expect(quietUntil(q("22:00", "08:00"), at("2026-11-22T08:00:00Z"))).toBeNull();
    expect(quietUntil(q("22:00", "08:00"), at("2026-11-22T21:59:00Z"))).toBeNull();
    // 20:30 UTC is 23:30 in Addis Ababa (UTC+3): quiet until 08:00 there, 05:00 UTC.
    expect(quietUntil(q("22:00", "08:00", "Africa/Addis_Ababa"), at("2026-11-22T20:30:00Z"))).toBe(
      at("2026-11-23T05:00:00Z"),
    );
  });

  test("within a day; off, or equal start and end, never holds", () => {
    expect(quietUntil(q("12:00", "14:00"), at("2026-11-22T13:00:00Z"))).toBe(at("2026-11-22T14:00:00Z"));
    expect(quietUntil(q("12:00", "14:00"), at("2026-11-22T14:30:00Z"))).toBeNull();
    expect(quietUntil(q("22:00", "08:00", "UTC", false), at("2026-11-22T23:00:00Z"))).toBeNull();
    expect(quietUntil(q("09:00", "09:00"), at("2026-11-22T09:00:00Z"))).toBeNull();
  });
});
