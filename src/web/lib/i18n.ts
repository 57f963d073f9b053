import { i18n } from "@lingui/core";
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, STORAGE_KEYS, type TLanguage } from "../../shared/constants";

const isLanguage = (v: unknown): v is TLanguage =>
  typeof v === "string" && (LANGUAGE_CODES as readonly string[]).includes(v);

/** Detection order of SPEC section 9: local storage, then the browser's language, then the page's language tag. */
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

const loaders: Record<TLanguage, () => Promise<{ messages: Record<string, unknown> }>> = {
  en: () => import("../../../locales/en.po"),
  am: () => import("../../../locales/am.po"),
  om: () => import("../../../locales/om.po"),
};

/**
 * Loads a catalog lazily and activates it; a failed load logs a warning and keeps the current language. The active
 * language is cached under i18nextLng; `chosen` marks an explicit choice of the user (preferredLanguage).
 */
export const activateLanguage = async (language: TLanguage, chosen = false) => {
  try {
    const { messages } = await loaders[language]();
    i18n.loadAndActivate({ locale: language, messages: messages as never });
    document.documentElement.lang = language;
    localStorage.setItem(STORAGE_KEYS.language, language);
    if (chosen) localStorage.setItem(STORAGE_KEYS.preferredLanguage, language);
  } catch (err) {
    console.warn(`Could not load the ${language} translations`, err);
    if (!i18n.locale) i18n.activate(DEFAULT_LANGUAGE);
  }
};

export { i18n };
