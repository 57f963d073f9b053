import { useLingui } from "@lingui/react/macro";
import type { TUnits } from "../../../shared/units";
import { usePreferences } from "../../lib/preferences";
import { NativeSelect } from "../ui/textarea";

/** Kilometres and kilograms or miles and pounds, for everyone (saved on the account when signed in, on the device always). */
export function UnitsSelect({ id, className }: { id: string; className?: string }) {
  const { t } = useLingui();
  const { units, setUnits } = usePreferences();
  return (
    <NativeSelect
      id={id}
      data-testid="units-select"
      className={className}
      value={units}
      onChange={(e) => setUnits(e.target.value as TUnits)}
    >
      <option value="metric">
        {t({
          message: "Kilometres and kilograms",
          comment: "Units choice: distances in kilometres (km), weights in kilograms (kg) and tonnes",
        })}
      </option>
      <option value="imperial">
        {t({
          message: "Miles and pounds",
          comment: "Units choice: distances in miles (mi), weights in pounds (lbs)",
        })}
      </option>
    </NativeSelect>
  );
}
