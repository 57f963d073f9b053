import { Trans } from "@lingui/react/macro";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";

/**
 * Where amounts are converted into the reader's currency: says that they are estimates and the day of the rates they
 * use. Money itself is never converted: a bid or a payment stays in its own currency.
 */
export function RatesNote({ className }: { className?: string }) {
  const { ratesDay, formatDate } = usePreferences();
  return (
    <p className={cn("text-xs text-muted-foreground", className)} data-testid="rates-note">
      {ratesDay ? (
        <Trans comment="Under converted amounts: they are estimates; then the day of the exchange rates used">
          Converted amounts are estimates, rates of {formatDate(`${ratesDay}T12:00:00Z`)}
        </Trans>
      ) : (
        <Trans comment="Under converted amounts while no published exchange rate has been fetched yet">
          Converted amounts are estimates at fixed starting rates
        </Trans>
      )}
    </p>
  );
}
