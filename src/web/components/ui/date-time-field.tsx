import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import {
  daysInEthiopicMonth,
  ETHIOPIC_MONTHS,
  ethiopicToGregorian,
  gregorianToEthiopic,
  localParts,
} from "../../../shared/dates";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { FieldError, Input, Label } from "./input";
import { NativeSelect } from "./textarea";

const pad = (n: number) => String(n).padStart(2, "0");

type TDateTimeFieldProps = {
  id: string;
  name: string;
  label: React.ReactNode;
  error?: React.ReactNode;
  className?: string;
  /** The instant the field starts from (ISO), shown in the reader's calendar and time zone; empty when absent. */
  defaultValue?: string | null;
};

/** An instant as the browser's own date-time picker takes it (local time), or "" for none. */
const toLocalInput = (iso: string | null | undefined) => {
  const d = new Date(iso ?? "");
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/**
 * A date and time input in the user's calendar. In the Gregorian calendar it is the browser's own picker; in the
 * Ethiopian one, day, month (13, with Pagume's 5 or 6 days) and year selects with a clock time. Either way the form
 * receives the same local "YYYY-MM-DDTHH:MM" value under `name`, so what is stored is the same instant (UTC).
 */
export function DateTimeField(props: TDateTimeFieldProps) {
  const { id, name, label, error, className, defaultValue } = props;
  const { calendar } = usePreferences();
  if (calendar !== "ethiopic")
    return (
      <div className={cn("grid gap-2", className)}>
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          name={name}
          type="datetime-local"
          defaultValue={toLocalInput(defaultValue) || undefined}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <FieldError id={`${id}-error`}>{error}</FieldError>
      </div>
    );
  return <EthiopicDateTime {...props} />;
}

function EthiopicDateTime({ id, name, label, error, className, defaultValue }: TDateTimeFieldProps) {
  const { t } = useLingui();
  const { language } = usePreferences();
  const today = useMemo(() => gregorianToEthiopic(localParts(new Date())), []);
  // A starting instant is shown as its Ethiopian date and local clock time; without one, today's year and 09:00.
  const start = useMemo(() => {
    const local = toLocalInput(defaultValue);
    if (!local) return null;
    const d = new Date(defaultValue as string);
    return { ...gregorianToEthiopic(localParts(d)), time: local.slice(11) };
  }, [defaultValue]);
  const [year, setYear] = useState(start?.year ?? today.year);
  const [month, setMonth] = useState(start?.month ?? 0);
  const [day, setDay] = useState(start?.day ?? 0);
  const [time, setTime] = useState(start?.time ?? "09:00");
  const days = month ? daysInEthiopicMonth(year, month) : 30;
  const g = month && day && day <= days ? ethiopicToGregorian({ year, month, day }) : null;
  const value = g && /^\d\d:\d\d$/.test(time) ? `${g.year}-${pad(g.month)}-${pad(g.day)}T${time}` : "";
  const months = ETHIOPIC_MONTHS[language];
  return (
    <fieldset className={cn("grid gap-2", className)} data-testid={`${id}-ethiopic`}>
      <legend className="mb-2 text-sm font-medium">{label}</legend>
      <div className="grid grid-cols-[4.5rem_1fr_5.5rem] gap-2">
        <NativeSelect
          id={id}
          aria-label={t({
            message: "Day",
            comment: "Date picker: the day of the month (label and empty first choice)",
          })}
          value={day}
          onChange={(e) => setDay(Number(e.target.value))}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <option value={0}>{t`Day`}</option>
          {Array.from({ length: days }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {i + 1}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label={t({ message: "Month", comment: "Date picker: the month (label and empty first choice)" })}
          value={month}
          onChange={(e) => setMonth(Number(e.target.value))}
        >
          <option value={0}>{t`Month`}</option>
          {months.map((m, i) => (
            <option key={m} value={i + 1}>
              {m}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label={t({ message: "Year", comment: "Date picker: the year" })}
          value={year}
          onChange={(e) => setYear(Number(e.target.value))}
        >
          {[...new Set([start?.year ?? today.year, today.year, today.year + 1])].sort().map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Input
        aria-label={t({ message: "Time", comment: "Date picker: the time of day" })}
        type="time"
        value={time}
        onChange={(e) => setTime(e.target.value)}
      />
      <input type="hidden" name={name} value={value} />
      {g && (
        <p className="text-xs text-muted-foreground" data-testid={`${id}-gregorian`}>
          <Trans comment="Under an Ethiopian date picker: the same date in the Gregorian calendar (day/month/year)">
            Gregorian: {g.day}/{g.month}/{g.year}
          </Trans>
        </p>
      )}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </fieldset>
  );
}
