import { i18n } from "@lingui/core";
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_CODES,
  LANGUAGE_COOKIE,
  STORAGE_KEYS,
  TIME_ZONE_COOKIE,
  type TLanguage,
} from "../../shared/constants";

const isLanguage = (v: unknown): v is TLanguage =>
  typeof v === "string" && (LANGUAGE_CODES as readonly string[]).includes(v);

/** Detection order: local storage, then the browser's language, then the page's language tag. */
export const detectLanguage = (): TLanguage => {
  const stored = [localStorage.getItem(STORAGE_KEYS.preferredLanguage), localStorage.getItem(STORAGE_KEYS.language)];
  for (const s of stored) if (isLanguage(s)) return s;
  for (const l of navigator.languages ?? [navigator.language]) {
    const code = l?.slice(0, 2).toLowerCase();
    if (isLanguage(code)) return code;
  }
  const tag = document.documentElement.lang?.slice(0, 2);
  return isLanguage(tag) ? tag : DEFAULT_LANGUAGE;
};

/** BCP 47 tags used to format numbers, money and dates for each interface language. */
export const FORMAT_LOCALE: Record<TLanguage, string> = { en: "en-US", am: "am-ET", om: "om-ET" };

type TCatalog = () => Promise<{ messages: Record<string, unknown> }>;
// The shell catalog (first screen, chrome) loads before the first render; the app catalog (signed-in screens) after.
const shell: Record<TLanguage, TCatalog> = {
  en: () => import("../../../locales/en.po"),
  am: () => import("../../../locales/am.po"),
  om: () => import("../../../locales/om.po"),
};
const app: Record<TLanguage, TCatalog> = {
  en: () => import("../../../locales/app/en.po"),
  am: () => import("../../../locales/app/am.po"),
  om: () => import("../../../locales/app/om.po"),
};
const appLoaded = new Map<TLanguage, Promise<void>>();

/** Adds the signed-in screens' messages for the active language (once per language). */
export const loadAppMessages = (language: TLanguage = (i18n.locale || DEFAULT_LANGUAGE) as TLanguage) => {
  let pending = appLoaded.get(language);
  if (!pending) {
    pending = app[language]()
      .then(({ messages }) => i18n.load(language, messages as never))
      .catch((err) => {
        appLoaded.delete(language);
        console.warn(`Could not load the ${language} translations`, err);
      });
    appLoaded.set(language, pending);
  }
  return pending;
};

/**
 * Loads a catalog lazily and activates it; a failed load logs a warning and keeps the current language. The active
 * language is cached under i18nextLng; `chosen` marks an explicit choice of the user (preferredLanguage).
 */
export const activateLanguage = async (language: TLanguage, chosen = false) => {
  try {
    const { messages } = await shell[language]();
    i18n.load(language, messages as never);
    // A change of language on a signed-in screen needs the app messages before it shows.
    if (appLoaded.size) await loadAppMessages(language);
    i18n.activate(language);
    document.documentElement.lang = language;
    localStorage.setItem(STORAGE_KEYS.language, language);
    // biome-ignore lint/suspicious/noDocumentCookie: one plain preference cookie; the Cookie Store API is not everywhere
    document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`;
    // The device's time zone beside it: an account made here starts with the region's currency and units.
    const zone = encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "");
    // biome-ignore lint/suspicious/noDocumentCookie: as above
    document.cookie = `${TIME_ZONE_COOKIE}=${zone}; Path=/; Max-Age=31536000; SameSite=Lax`;
    if (chosen) localStorage.setItem(STORAGE_KEYS.preferredLanguage, language);
  } catch (err) {
    console.warn(`Could not load the ${language} translations`, err);
    if (!i18n.locale) i18n.activate(DEFAULT_LANGUAGE);
  }
};

export { i18n };
