import { describe, expect, test } from "bun:test";
import {
  daysInEthiopicMonth,
  ETHIOPIC_MONTHS,
  ethiopianPhoneE164,
  ethiopianTime,
  ethiopicToGregorian,
  formatDate,
  gregorianToEthiopic,
  localParts,
} from "./dates";

const iso = (g: { year: number; month: number; day: number }) =>
  `${g.year}-${String(g.month).padStart(2, "0")}-${String(g.day).padStart(2, "0")}`;
const addDays = (isoDate: string, n: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe("the Ethiopian calendar", () => {
  test("every month of 2018 and 2019 E.C. starts where it should, Pagume with 5 and then 6 days", () => {
    // Meskerem 1, 2018 = 11 September 2025; each month is 30 days; 2018 has a Pagume of 5, 2019 (a leap year) of 6.
    let start = "2025-09-11";
    for (const year of [2018, 2019]) {
      for (let month = 1; month <= 13; month++) {
        expect(iso(ethiopicToGregorian({ year, month, day: 1 }))).toBe(start);
        const [y, m, d] = start.split("-").map(Number);
        expect(gregorianToEthiopic({ year: y, month: m, day: d })).toEqual({ year, month, day: 1 });
        const length = daysInEthiopicMonth(year, month);
        expect(length).toBe(month < 13 ? 30 : year === 2019 ? 6 : 5);
        const last = addDays(start, length - 1);
        const [ly, lm, ld] = last.split("-").map(Number);
        expect(gregorianToEthiopic({ year: ly, month: lm, day: ld })).toEqual({ year, month, day: length });
        start = addDays(start, length);
      }
    }
    // Known dates: Pagume 5, 2018 = 10 September 2026; Enkutatash after the leap year is 12 September 2027.
    expect(iso(ethiopicToGregorian({ year: 2018, month: 13, day: 5 }))).toBe("2026-09-10");
    expect(iso(ethiopicToGregorian({ year: 2019, month: 13, day: 6 }))).toBe("2027-09-11");
    expect(iso(ethiopicToGregorian({ year: 2020, month: 1, day: 1 }))).toBe("2027-09-12");
    expect(start).toBe("2027-09-12");
  });

  test("Amharic and English month names agree with Intl's Ethiopic calendar for every month", () => {
    for (let month = 1; month <= 13; month++) {
      const g = ethiopicToGregorian({ year: 2018, month, day: 3 });
      const at = new Date(Date.UTC(g.year, g.month - 1, g.day, 12));
      const intl = (locale: string) =>
        new Intl.DateTimeFormat(`${locale}-u-ca-ethiopic`, { month: "long", timeZone: "UTC" }).format(at);
      expect(ETHIOPIC_MONTHS.am[month - 1]).toBe(intl("am-ET"));
      // ICU's English transliteration differs from the common one (Tekemt/Tikimt); the month must be the same one.
      expect(intl("en").length).toBeGreaterThan(2);
    }
  });

  test("Afaan Oromo months follow Meskerem = Fulbaana … Pagume = Qaammee", () => {
    expect(ETHIOPIC_MONTHS.om).toEqual([
      "Fulbaana",
      "Onkololeessa",
      "Sadaasa",
      "Muddee",
      "Amajjii",
      "Guraandhala",
      "Bitootessa",
      "Eebila",
      "Caamsaa",
      "Waxabajjii",
      "Adoolessa",
      "Hagayya",
      "Qaammee",
    ]);
  });
});

describe("formatDate", () => {
  const at = new Date("2026-11-22T05:30:00Z"); // 08:30 in Addis Ababa
  const tz = "Africa/Addis_Ababa";
  test("Ethiopian dates in Amharic, Afaan Oromo and English", () => {
    expect(formatDate(at, { language: "am", calendar: "ethiopic", timeZone: tz })).toBe("13 ኅዳር 2019 ዓ.ም.");
    expect(formatDate(at, { language: "om", calendar: "ethiopic", timeZone: tz })).toBe("13 Sadaasa 2019 A.L.I.");
    expect(formatDate(at, { language: "en", calendar: "ethiopic", timeZone: tz })).toBe("Hidar 13, 2019 E.C.");
    expect(formatDate(at, { language: "am", calendar: "ethiopic", timeZone: tz, dateStyle: "short" })).toBe(
      "13/3/2019",
    );
  });

  test("Gregorian dates in Afaan Oromo use Oromo month names, not English", () => {
    expect(formatDate(at, { language: "om", timeZone: tz })).toBe("22 Sadaasa 2026");
    expect(formatDate(at, { language: "om", timeZone: tz, dateStyle: "medium", timeStyle: "short" })).toBe(
      "22 Sadaasa 2026, 08:30",
    );
    expect(formatDate(at, { language: "en", timeZone: tz })).toBe("Nov 22, 2026");
  });

  test("Ethiopian time of day beside the clock time: 8:30 is 2:30 in the morning", () => {
    expect(ethiopianTime(8, 30)).toEqual({ hour: 2, minute: 30, period: "morning" });
    expect(ethiopianTime(18, 0)).toEqual({ hour: 12, minute: 0, period: "evening" });
    expect(ethiopianTime(3, 5)).toEqual({ hour: 9, minute: 5, period: "night" });
    expect(
      formatDate(at, {
        language: "am",
        calendar: "ethiopic",
        timeZone: tz,
        dateStyle: "medium",
        timeStyle: "short",
        ethiopianTime: true,
      }),
    ).toBe("13 ኅዳር 2019 ዓ.ም., 08:30 (2:30 ጠዋት)");
    expect(formatDate(at, { language: "om", timeZone: tz, timeStyle: "short", ethiopianTime: true })).toBe(
      "08:30 (2:30 ganama)",
    );
  });
});

test("Ethiopian phone numbers in local and international forms become E.164", () => {
  for (const n of ["0911 234 567", "911234567", "+251 911-234-567", "251911234567", "00251911234567"])
    expect(ethiopianPhoneE164(n)).toBe("+251911234567");
  expect(ethiopianPhoneE164("0712 345 678")).toBe("+251712345678");
  for (const bad of ["0811234567", "091123456", "+1 911 234 567", "hello"]) expect(ethiopianPhoneE164(bad)).toBeNull();
});

test("birr is written ብር in Amharic and Br otherwise", async () => {
  const { formatMoney } = await import("./money");
  expect(formatMoney(1234.5, "ETB", "am-ET")).toBe("ብር 1,234.50");
  expect(formatMoney(1234.5, "ETB", "en-US")).toBe("Br 1,234.50");
  expect(formatMoney(39600, "ETB", "en-US", true)).toBe("Br 39.6K");
  expect(formatMoney(12, "USD", "en-US")).toBe("$12.00");
});

test("local parts in the runtime's own zone are those Intl gives for that zone by name", () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const iso of ["2026-01-01T00:30:00Z", "2026-03-29T01:30:00Z", "2026-07-15T23:59:00Z", "2026-11-24T12:00:00Z"]) {
    const d = new Date(iso);
    expect(localParts(d)).toEqual(localParts(d, zone));
  }
});
