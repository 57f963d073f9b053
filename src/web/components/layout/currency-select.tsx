import { useLingui } from "@lingui/react/macro";
import { CURRENCIES, type TDisplayCurrency } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../ui/select";

export function CurrencySelect({ className }: { className?: string }) {
  const { t } = useLingui();
  const { currency, setCurrency } = usePreferences();
  return (
    <Select value={currency} onValueChange={(v) => setCurrency(v as TDisplayCurrency)}>
      <SelectTrigger className={className} aria-label={t`Currency`} data-testid="currency-select">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {CURRENCIES.map((c) => (
          <SelectItem key={c.code} value={c.code}>
            {c.symbol} {c.code}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
