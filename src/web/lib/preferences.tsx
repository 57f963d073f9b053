import { useLingui } from "@lingui/react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import {
  CURRENCIES,
  DISPLAY_CURRENCY_CODES,
  STORAGE_KEYS,
  type TDisplayCurrency,
  type TLanguage,
} from "../../shared/constants";
import { convert, formatMoney } from "../../shared/money";
import { useMe } from "./auth";
import { activateLanguage, FORMAT_LOCALE } from "./i18n";
import { trpc } from "./trpc";

type TPreferences = {
  language: TLanguage;
  setLanguage: (l: TLanguage) => Promise<void>;
  currency: TDisplayCurrency;
  setCurrency: (c: TDisplayCurrency) => void;
  /** Converts an amount into the chosen display currency and formats it for the interface language. */
  formatAmount: (amount: number, from?: string, compact?: boolean) => string;
  /** Formats an amount in its own currency for the interface language. */
  formatOriginal: (amount: number, currency: string) => string;
  formatDate: (d: string | number | Date, opts?: Intl.DateTimeFormatOptions) => string;
  formatNumber: (n: number, opts?: Intl.NumberFormatOptions) => string;
  formatLocale: string;
};

const PreferencesContext = createContext<TPreferences | null>(null);

const isDisplayCurrency = (v: unknown): v is TDisplayCurrency =>
  typeof v === "string" && (DISPLAY_CURRENCY_CODES as readonly string[]).includes(v);

const FALLBACK_RATES: Record<string, number> = {
  ...Object.fromEntries(CURRENCIES.map((c) => [c.code, c.exchangeRate])),
  GBP: 0.79,
  CAD: 1.37,
};

/**
 * Language and currency: chosen locally (local storage) and, when signed in, kept on the server too. A choice made on
 * this device wins; a device with no choice yet takes the account's.
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useLingui();
  const language = (i18n.locale || "en") as TLanguage;
  const me = useMe().data;
  const [currency, setCurrencyState] = useState<TDisplayCurrency>(() => {
    const stored = localStorage.getItem(STORAGE_KEYS.preferredCurrency);
    return isDisplayCurrency(stored) ? stored : "USD";
  });
  const rates = useQuery(trpc.platform.fxRates.queryOptions()).data;
  const saveLanguage = useMutation(trpc.user.updateLanguage.mutationOptions());
  const saveCurrency = useMutation(trpc.user.updateCurrency.mutationOptions());
  const { mutate: pushLanguage } = saveLanguage;
  const { mutate: pushCurrency } = saveCurrency;

  // On sign-in: a device without a stored choice adopts the account's; otherwise the device's choice is saved.
  useEffect(() => {
    if (!me) return;
    const storedCurrency = localStorage.getItem(STORAGE_KEYS.preferredCurrency);
    if (!isDisplayCurrency(storedCurrency) && isDisplayCurrency(me.currency)) setCurrencyState(me.currency);
    else if (isDisplayCurrency(storedCurrency) && storedCurrency !== me.currency) {
      pushCurrency({ currency: storedCurrency }, { onError: (e) => console.warn("Could not save the currency", e) });
    }
    const storedLanguage = localStorage.getItem(STORAGE_KEYS.preferredLanguage);
    if (!storedLanguage && me.language !== language) void activateLanguage(me.language as TLanguage);
    else if (storedLanguage && me.language !== language) {
      pushLanguage({ language }, { onError: (e) => console.warn("Could not save the language", e) });
    }
  }, [me, language, pushCurrency, pushLanguage]);

  const setLanguage = useCallback(
    async (l: TLanguage) => {
      await activateLanguage(l, true);
      // Fire and forget (SPEC section 7): a failure only logs a warning.
      if (me) pushLanguage({ language: l }, { onError: (e) => console.warn("Could not save the language", e) });
    },
    [me, pushLanguage],
  );

  const setCurrency = useCallback(
    (c: TDisplayCurrency) => {
      setCurrencyState(c);
      localStorage.setItem(STORAGE_KEYS.preferredCurrency, c);
      if (me) pushCurrency({ currency: c }, { onError: (e) => console.warn("Could not save the currency", e) });
    },
    [me, pushCurrency],
  );

  const value = useMemo<TPreferences>(() => {
    const formatLocale = FORMAT_LOCALE[language] ?? "en-US";
    const rateOf = (code: string) => rates?.find((r) => r.code === code)?.exchangeRate ?? FALLBACK_RATES[code] ?? 1;
    return {
      language,
      setLanguage,
      currency,
      setCurrency,
      formatLocale,
      formatAmount: (amount, from = "USD", compact = false) =>
        formatMoney(
          from === currency ? amount : convert(amount, rateOf(from), rateOf(currency)),
          currency,
          formatLocale,
          compact,
        ),
      formatOriginal: (amount, code) => formatMoney(amount, code, formatLocale),
      formatDate: (d, opts = { dateStyle: "medium" }) =>
        new Intl.DateTimeFormat(formatLocale, opts).format(new Date(d)),
      formatNumber: (n, opts) => new Intl.NumberFormat(formatLocale, opts).format(n),
    };
  }, [language, setLanguage, currency, setCurrency, rates]);

  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export const usePreferences = () => {
  const ctx = useContext(PreferencesContext);
  if (!ctx) throw new Error("usePreferences needs PreferencesProvider");
  return ctx;
};
