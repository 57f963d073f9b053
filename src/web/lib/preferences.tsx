import { useLingui } from "@lingui/react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import {
  DISPLAY_CURRENCY_CODES,
  FX_SEED_RATES,
  STORAGE_KEYS,
  type TDisplayCurrency,
  type TLanguage,
} from "../../shared/constants";
import { CALENDARS, formatDate, type TCalendar, type TDateFormat } from "../../shared/dates";
import { numberFormat } from "../../shared/intl";
import { formatMoney, shownAmount, type TShownAmount, withEstimateMark } from "../../shared/money";
import { accountDefaults, deviceRegion } from "../../shared/region";
import {
  defaultUnits,
  distanceUnit,
  formatDistance,
  formatRatePerDistance,
  formatWeight,
  isUnits,
  type TUnitFormat,
  type TUnits,
  weightUnit,
} from "../../shared/units";
import { useMe } from "./auth";
import { activateLanguage, FORMAT_LOCALE } from "./i18n";
import { trpc } from "./trpc";

type TPreferences = {
  language: TLanguage;
  setLanguage: (l: TLanguage) => Promise<void>;
  currency: TDisplayCurrency;
  setCurrency: (c: TDisplayCurrency) => void;
  /**
   * Converts an amount into the chosen display currency and formats it for the interface language; a converted one is
   * an estimate and says so ("≈ Br 12,345"). In the interface prefer `<Amount>`, which also labels it for everyone.
   */
  formatAmount: (amount: number, from?: string, compact?: boolean) => string;
  /** The amount in the display currency and whether it was converted (an estimate), for `<Amount>`. */
  showAmount: (amount: number, from: string, compact?: boolean) => TShownAmount;
  /** Formats an amount in its own currency for the interface language. */
  formatOriginal: (amount: number, currency: string) => string;
  /** A currency's units per USD at the rates the conversions use (the first-start rates until the server's arrive). */
  rateOf: (code: string) => number;
  /**
   * The day (YYYY-MM-DD) of the rates conversions into the display currency use; null while only the first-start
   * rates are known. Every converted amount is an estimate at these rates.
   */
  ratesDay: string | null;
  /** Dates in the chosen calendar (and Ethiopian time of day, if chosen), in the interface language. */
  formatDate: (d: string | number | Date, opts?: Pick<TDateFormat, "dateStyle" | "timeStyle">) => string;
  calendar: TCalendar;
  ethiopianTime: boolean;
  /** Sets the calendar (and the Ethiopian time of day): on this device, and on the account when signed in. */
  setCalendar: (calendar: TCalendar, ethiopianTime?: boolean) => void;
  formatNumber: (n: number, opts?: Intl.NumberFormatOptions) => string;
  formatLocale: string;
  /** Kilometres and kilograms or miles and pounds: this device's choice, else the account's, else the device's region. */
  units: TUnits;
  /** Sets the units: on this device, and on the account when signed in. */
  setUnits: (u: TUnits) => void;
  unitFormat: TUnitFormat;
  /** A distance stored in miles, in the reader's unit ("12 km"). */
  formatDistance: (miles: number, digits?: number) => string;
  /** A weight stored in pounds, in the reader's unit ("18.1 t", "850 kg", "40,000 lbs"). */
  formatWeight: (lbs: number) => string;
  /** A rate per mile in its currency, per the reader's unit of distance ("Br 71.43/km"). */
  formatRatePerDistance: (perMile: number, currency: string) => string;
  /** The unit words of the reader's distances and typed weights ("km" / "mi", "kg" / "lb"). */
  distanceUnit: string;
  weightUnit: string;
};

const PreferencesContext = createContext<TPreferences | null>(null);

// A device without an account keeps its calendar choice here.
const CALENDAR_KEY = "preferredCalendar";
const UNITS_KEY = "preferredUnits";
const ETHIOPIAN_TIME_KEY = "ethiopianTime";
const isCalendar = (v: unknown): v is TCalendar =>
  typeof v === "string" && (CALENDARS as readonly string[]).includes(v);

const isDisplayCurrency = (v: unknown): v is TDisplayCurrency =>
  typeof v === "string" && (DISPLAY_CURRENCY_CODES as readonly string[]).includes(v);

/** What the device says of where it is: its time zone and languages (the region decides the default units). */
export const deviceHints = () => ({
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  // Prerendering runs without a browser: its navigator may name no languages at all.
  languages:
    typeof navigator === "undefined"
      ? []
      : [...(navigator.languages ?? [navigator.language])].filter((l): l is string => typeof l === "string"),
});

/**
 * Language and currency: chosen locally (local storage) and, when signed in, kept on the server too. A choice made on
 * this device wins; a device with no choice yet takes the account's.
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useLingui();
  const language = (i18n.locale || "en") as TLanguage;
  const me = useMe().data;
  // Without a choice on this device, the currency a new account would start with here (birr for Ethiopia and for
  // Amharic and Afaan Oromo readers), until the account's own arrives.
  const [currency, setCurrencyState] = useState<TDisplayCurrency>(() => {
    const stored = localStorage.getItem(STORAGE_KEYS.preferredCurrency);
    return isDisplayCurrency(stored)
      ? stored
      : accountDefaults({ language, region: deviceRegion(deviceHints()) }).currency;
  });
  const [calendar, setCalendarState] = useState<TCalendar>(() => {
    const stored = localStorage.getItem(CALENDAR_KEY);
    return isCalendar(stored) ? stored : "gregorian";
  });
  const [ethiopianTime, setEthiopianTime] = useState(() => localStorage.getItem(ETHIOPIAN_TIME_KEY) === "1");
  // Units chosen on this device (null: none yet, so the account's or the device's region's apply).
  const [chosenUnits, setChosenUnits] = useState<TUnits | null>(() => {
    const stored = localStorage.getItem(UNITS_KEY);
    return isUnits(stored) ? stored : null;
  });
  const saveUnits = useMutation(trpc.user.updateUnits.mutationOptions());
  const { mutate: pushUnits } = saveUnits;
  const saveCalendar = useMutation(trpc.user.updateCalendar.mutationOptions());
  const { mutate: pushCalendar } = saveCalendar;
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
    // The calendar the same way: this device's explicit choice wins and is saved, else the account's is taken.
    const storedCalendar = localStorage.getItem(CALENDAR_KEY);
    if (!isCalendar(storedCalendar)) {
      setCalendarState(me.calendar);
      setEthiopianTime(me.ethiopianTime);
    } else if (
      storedCalendar !== me.calendar ||
      (localStorage.getItem(ETHIOPIAN_TIME_KEY) === "1") !== me.ethiopianTime
    ) {
      pushCalendar(
        { calendar: storedCalendar, ethiopianTime: localStorage.getItem(ETHIOPIAN_TIME_KEY) === "1" },
        { onError: (e) => console.warn("Could not save the calendar", e) },
      );
    }
    // Units too: a choice made on this device is saved to the account; without one the account's apply.
    const storedUnits = localStorage.getItem(UNITS_KEY);
    if (isUnits(storedUnits) && storedUnits !== me.units)
      pushUnits({ units: storedUnits }, { onError: (e) => console.warn("Could not save the units", e) });
    const storedLanguage = localStorage.getItem(STORAGE_KEYS.preferredLanguage);
    if (!storedLanguage && me.language !== language) void activateLanguage(me.language as TLanguage);
    else if (storedLanguage && me.language !== language) {
      pushLanguage({ language }, { onError: (e) => console.warn("Could not save the language", e) });
    }
  }, [me, language, pushCurrency, pushLanguage, pushCalendar, pushUnits]);

  const setUnits = useCallback(
    (u: TUnits) => {
      setChosenUnits(u);
      localStorage.setItem(UNITS_KEY, u);
      if (me) pushUnits({ units: u }, { onError: (e) => console.warn("Could not save the units", e) });
    },
    [me, pushUnits],
  );
  const units: TUnits =
    chosenUnits ??
    (me?.units && isUnits(me.units) ? me.units : null) ??
    defaultUnits({ language, region: deviceRegion(deviceHints()) });

  const setCalendar = useCallback(
    (c: TCalendar, withEthiopianTime?: boolean) => {
      setCalendarState(c);
      localStorage.setItem(CALENDAR_KEY, c);
      const time = withEthiopianTime ?? ethiopianTime;
      setEthiopianTime(time);
      localStorage.setItem(ETHIOPIAN_TIME_KEY, time ? "1" : "0");
      if (me)
        pushCalendar(
          { calendar: c, ethiopianTime: time },
          { onError: (e) => console.warn("Could not save the calendar", e) },
        );
    },
    [me, pushCalendar, ethiopianTime],
  );

  const setLanguage = useCallback(
    async (l: TLanguage) => {
      await activateLanguage(l, true);
      // Fire and forget: a failure only logs a warning.
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
    const unitFormat: TUnitFormat = { units, language, locale: formatLocale };
    const rateOf = (code: string) => rates?.find((r) => r.code === code)?.exchangeRate ?? FX_SEED_RATES[code] ?? 1;
    return {
      language,
      setLanguage,
      currency,
      setCurrency,
      formatLocale,
      formatAmount: (amount, from = "USD", compact = false) =>
        withEstimateMark(shownAmount(amount, from, currency, rateOf, formatLocale, compact)),
      showAmount: (amount, from, compact = false) => shownAmount(amount, from, currency, rateOf, formatLocale, compact),
      formatOriginal: (amount, code) => formatMoney(amount, code, formatLocale),
      rateOf,
      ratesDay: rates?.find((r) => r.code === currency)?.rateDate ?? null,
      formatDate: (d, opts = { dateStyle: "medium" }) =>
        formatDate(d, { language, calendar, ethiopianTime, dateStyle: opts.dateStyle, timeStyle: opts.timeStyle }),
      calendar,
      ethiopianTime,
      setCalendar,
      formatNumber: (n, opts) => numberFormat(formatLocale, opts).format(n),
      units,
      setUnits,
      unitFormat,
      formatDistance: (miles, digits) => formatDistance(miles, unitFormat, digits),
      formatWeight: (lbs) => formatWeight(lbs, unitFormat),
      formatRatePerDistance: (perMile, code) => formatRatePerDistance(perMile, code, unitFormat),
      distanceUnit: distanceUnit(unitFormat),
      weightUnit: weightUnit(unitFormat),
    };
  }, [language, setLanguage, currency, setCurrency, rates, calendar, ethiopianTime, setCalendar, units, setUnits]);

  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export const usePreferences = () => {
  const ctx = useContext(PreferencesContext);
  if (!ctx) throw new Error("usePreferences needs PreferencesProvider");
  return ctx;
};
