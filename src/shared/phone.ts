// Phone numbers are stored as E.164 (+251911234567). Ethiopians write them locally (0911 23 45 67, 07… for the second
// operator) or internationally (+251 911 234 567, 00251…); both are accepted.

const ETHIOPIA = "251";

/** The E.164 form of a phone number, or null when it is not one. */
export const normalizePhone = (input: string): string | null => {
  let s = input.trim().replace(/[\s\-.()]/g, "");
  if (s.startsWith("00")) s = `+${s.slice(2)}`;
  if (!/^\+?\d+$/.test(s)) return null;
  // Ethiopian numbers: 9 digits after the country code, the first not 0 (9 and 7 are mobile, 1–5 fixed lines).
  const national = s.startsWith(`+${ETHIOPIA}`)
    ? s.slice(4)
    : s.startsWith(ETHIOPIA) && s.length === 12
      ? s.slice(3)
      : s.startsWith("0") && s.length === 10
        ? s.slice(1)
        : /^[79]\d{8}$/.test(s)
          ? s
          : null;
  if (national !== null) return /^[1-9]\d{8}$/.test(national) ? `+${ETHIOPIA}${national}` : null;
  // Any other country: + then a country code (not 0) and at most 15 digits in all.
  return /^\+[1-9]\d{7,14}$/.test(s) ? s : null;
};
