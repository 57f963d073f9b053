// Dates as people in Ethiopia read them, for every door (web, server messages, bots, CLI): the Gregorian or the
// Ethiopian calendar (13 months, Pagume of 5 or 6 days), in English, Amharic or Afaan Oromo, with the Ethiopian time of
// day (hours counted from 6 in the morning) on request. The day arithmetic is ours (Julian day numbers), so it is the
// same in every runtime; month names come from our own tables, checked against Intl where its data is complete
// (Amharic, English) and written out for Afaan Oromo, which Chromium has no data for and ICU gets partly wrong.
import { dateTimeFormat } from "./intl";

export const CALENDARS = ["gregorian", "ethiopic"] as const;
export type TCalendar = (typeof CALENDARS)[number];
type TLang = "en" | "am" | "om";

export type TYmd = { year: number; month: number; day: number };

// Julian day number of Meskerem 1, year 1 (Amete Mihret).
const ETHIOPIC_EPOCH = 1724221;
const UNIX_EPOCH_JDN = 2440588;
const DAY_MS = 86_400_000;

/** Days from Meskerem 1 of year 1 to Meskerem 1 of `year` (every year % 4 === 3 has a Pagume of 6). */
const yearStart = (year: number) => 365 * (year - 1) + Math.floor(year / 4);

export const ethiopicToJdn = ({ year, month, day }: TYmd) =>
  ETHIOPIC_EPOCH + yearStart(year) + 30 * (month - 1) + day - 1;

export const jdnToEthiopic = (jdn: number): TYmd => {
  const k = jdn - ETHIOPIC_EPOCH;
  let year = Math.floor(k / 365.25) + 1;
  while (yearStart(year + 1) <= k) year++;
  while (yearStart(year) > k) year--;
  const n = k - yearStart(year);
  return { year, month: Math.floor(n / 30) + 1, day: (n % 30) + 1 };
};

export const gregorianToJdn = ({ year, month, day }: TYmd) =>
  Math.floor(Date.UTC(year, month - 1, day) / DAY_MS) + UNIX_EPOCH_JDN;

export const jdnToGregorian = (jdn: number): TYmd => {
  const d = new Date((jdn - UNIX_EPOCH_JDN) * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/** Pagume has 6 days in the year before an Ethiopian leap year's Meskerem (year % 4 === 3), else 5. */
export const daysInEthiopicMonth = (year: number, month: number) => (month < 13 ? 30 : year % 4 === 3 ? 6 : 5);

export const ethiopicToGregorian = (e: TYmd) => jdnToGregorian(ethiopicToJdn(e));
export const gregorianToEthiopic = (g: TYmd) => jdnToEthiopic(gregorianToJdn(g));

/** The calendar date and clock time of an instant where the reader is (their time zone, or the runtime's). */
export const localParts = (date: Date, timeZone?: string) => {
  // The runtime's own zone needs no Intl formatter (the first one made on a slow phone costs tens of milliseconds).
  if (!timeZone)
    return {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: date.getHours(),
      minute: date.getMinutes(),
    };
  const parts = dateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour") % 24, minute: get("minute") };
};

/** Afaan Oromo names of the Gregorian months, January first (Chromium has no Oromo locale data). */
export const OROMO_GREGORIAN_MONTHS = [
  "Amajjii",
  "Guraandhala",
  "Bitootessa",
  "Eebila",
  "Caamsaa",
  "Waxabajjii",
  "Adoolessa",
  "Hagayya",
  "Fulbaana",
  "Onkololeessa",
  "Sadaasa",
  "Muddee",
] as const;

export const ETHIOPIC_MONTHS: Record<TLang, readonly string[]> = {
  en: [
    "Meskerem",
    "Tikimt",
    "Hidar",
    "Tahsas",
    "Tir",
    "Yekatit",
    "Megabit",
    "Miyazya",
    "Ginbot",
    "Sene",
    "Hamle",
    "Nehase",
    "Pagume",
  ],
  am: ["መስከረም", "ጥቅምት", "ኅዳር", "ታኅሣሥ", "ጥር", "የካቲት", "መጋቢት", "ሚያዝያ", "ግንቦት", "ሰኔ", "ሐምሌ", "ነሐሴ", "ጳጉሜን"],
  // Afaan Oromo names each Ethiopian month as the Gregorian month it begins in: Meskerem (from 11 September) is
  // Fulbaana, Tikimt Onkololeessa, … Nehase Hagayya; Pagume, the thirteenth, is Qaammee.
  om: [...OROMO_GREGORIAN_MONTHS.slice(8), ...OROMO_GREGORIAN_MONTHS.slice(0, 8), "Qaammee"],
};

/** Ethiopian time of day: the hours counted from 6 in the morning and 6 in the evening (8:00 is 2 in the morning). */
export const ethiopianTime = (hour: number, minute: number) => {
  const h = (hour + 6) % 12;
  const period =
    hour >= 6 && hour < 12 ? "morning" : hour >= 12 && hour < 18 ? "afternoon" : hour >= 18 ? "evening" : "night";
  return { hour: h === 0 ? 12 : h, minute, period } as const;
};

const PERIOD: Record<TLang, Record<ReturnType<typeof ethiopianTime>["period"], string>> = {
  en: { morning: "in the morning", afternoon: "in the afternoon", evening: "in the evening", night: "at night" },
  am: { morning: "ጠዋት", afternoon: "ከሰዓት", evening: "ማታ", night: "ሌሊት" },
  om: { morning: "ganama", afternoon: "waaree booda", evening: "galgala", night: "halkan" },
};
const ERA: Record<TLang, string> = { en: "E.C.", am: "ዓ.ም.", om: "A.L.I." };

const pad = (n: number) => String(n).padStart(2, "0");

export type TDateFormat = {
  language: TLang;
  calendar?: TCalendar;
  /** Add the Ethiopian time of day beside the clock time. */
  ethiopianTime?: boolean;
  timeZone?: string;
  /** Like Intl's: the date part (none when absent with timeStyle), and whether a clock time follows. */
  dateStyle?: "short" | "medium" | "long" | "full";
  timeStyle?: "short" | "medium";
};

const INTL_LOCALE: Record<TLang, string> = { en: "en-US", am: "am-ET", om: "en-GB" };

/** One formatter for every door: `formatDate(new Date(), { language: "am", calendar: "ethiopic" })` → "13 ኅዳር 2019 ዓ.ም.". */
export const formatDate = (input: Date | string | number, f: TDateFormat): string => {
  const date = new Date(input);
  if (Number.isNaN(date.getTime())) return "";
  const calendar = f.calendar ?? "gregorian";
  const dateStyle = f.dateStyle ?? (f.timeStyle ? undefined : "medium");
  const p = localParts(date, f.timeZone);
  const clock = `${pad(p.hour)}:${pad(p.minute)}`;
  let time = "";
  if (f.timeStyle) {
    time =
      calendar === "gregorian" && f.language !== "om"
        ? dateTimeFormat(INTL_LOCALE[f.language], { timeStyle: "short", timeZone: f.timeZone }).format(date)
        : clock;
    if (f.ethiopianTime) {
      const e = ethiopianTime(p.hour, p.minute);
      time += ` (${e.hour}:${pad(e.minute)} ${PERIOD[f.language][e.period]})`;
    }
  }
  let day = "";
  if (dateStyle) {
    if (calendar === "ethiopic") {
      const e = gregorianToEthiopic(p);
      const month = ETHIOPIC_MONTHS[f.language][e.month - 1];
      day =
        dateStyle === "short"
          ? `${e.day}/${e.month}/${e.year}`
          : f.language === "en"
            ? `${month} ${e.day}, ${e.year} ${ERA.en}`
            : `${e.day} ${month} ${e.year} ${ERA[f.language]}`;
    } else if (f.language === "om") {
      const month = OROMO_GREGORIAN_MONTHS[p.month - 1];
      day = dateStyle === "short" ? `${p.day}/${p.month}/${p.year}` : `${p.day} ${month} ${p.year}`;
    } else {
      day = dateTimeFormat(INTL_LOCALE[f.language], { dateStyle, timeZone: f.timeZone }).format(date);
    }
  }
  return [day, time].filter(Boolean).join(", ");
};

/**
 * An Ethiopian phone number in any of its usual forms (09…, 07…, 9…, 2519…, +251 9…) as E.164 (+2519…/+2517…), or
 * null when it is not one. Spaces, dashes and brackets are ignored.
 */
export const ethiopianPhoneE164 = (input: string): string | null => {
  const digits = input.replace(/[\s\-().]/g, "");
  const m = digits.match(/^(?:\+251|00251|251|0)?([79]\d{8})$/);
  return m ? `+251${m[1]}` : null;
};
