import { useLingui } from "@lingui/react/macro";
import type { TCalendar } from "../../../shared/dates";
import { usePreferences } from "../../lib/preferences";
import { NativeSelect } from "../ui/textarea";

/** The Gregorian or the Ethiopian calendar, for everyone (saved on the account when signed in, on the device always). */
export function CalendarSelect({ id, className }: { id: string; className?: string }) {
  const { t } = useLingui();
  const { calendar, setCalendar } = usePreferences();
  return (
    <NativeSelect
      id={id}
      className={className}
      value={calendar}
      onChange={(e) => setCalendar(e.target.value as TCalendar)}
    >
      <option value="gregorian">
        {t({ message: "Gregorian", comment: "Calendar choice: the Gregorian (European) calendar" })}
      </option>
      <option value="ethiopic">
        {t({ message: "Ethiopian", comment: "Calendar choice: the Ethiopian calendar" })}
      </option>
    </NativeSelect>
  );
}
