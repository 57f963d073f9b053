import { useLingui } from "@lingui/react/macro";
import { CURRENCIES, type TDisplayCurrency } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";

export function CurrencySelect({ className }: { className?: string }) {
  const { t } = useLingui();
  const { currency, setCurrency } = usePreferences();
  return (
    <select
      aria-label={t`Currency`}
      data-testid="currency-select"
      value={currency}
      onChange={(e) => setCurrency(e.target.value as TDisplayCurrency)}
      className={cn(
        "h-9 appearance-none rounded-md border bg-white px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-brand/40",
        className,
      )}
    >
      {CURRENCIES.map((c) => (
        <option key={c.code} value={c.code}>
          {c.symbol} {c.code}
        </option>
      ))}
    </select>
  );
}
