import { LANGUAGE_CODES, LANGUAGE_COOKIE, TIME_ZONE_COOKIE, type TLanguage } from "../../shared/constants";
import { deviceRegion } from "../../shared/region";

const isLanguage = (code: string | undefined): code is TLanguage =>
  code !== undefined && (LANGUAGE_CODES as readonly string[]).includes(code);

/**
 * The language a request most likely reads: the web app's own cookie (the language it shows on this device), else the
 * browser's languages, else English. A signed-in caller's account language comes before both (`contextFromRequest`).
 */
export const requestLocale = (req: Request): TLanguage => {
  const cookie = req.headers
    .get("cookie")
    ?.split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${LANGUAGE_COOKIE}=`))
    ?.slice(LANGUAGE_COOKIE.length + 1);
  if (isLanguage(cookie)) return cookie;
  for (const part of (req.headers.get("accept-language") ?? "").split(",")) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if (isLanguage(code)) return code;
  }
  return "en";
};

const cookieValue = (req: Request, name: string) => {
  const raw = req.headers
    .get("cookie")
    ?.split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
};

/**
 * The country a request most likely comes from: the time zone the web app puts in its cookie, else the region of
 * the browser's languages (en-GB), else null. A new account takes its currency and units from it.
 */
export const requestRegion = (req: Request): string | null =>
  deviceRegion({
    timeZone: cookieValue(req, TIME_ZONE_COOKIE),
    languages: (req.headers.get("accept-language") ?? "").split(","),
  });

/** The time zone the web app put in its cookie (the device's), or null. */
export const requestTimeZone = (req: Request): string | null => cookieValue(req, TIME_ZONE_COOKIE);
