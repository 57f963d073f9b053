import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";

/**
 * A load's budget in the viewer's display currency, with the amount in the load's own currency beneath it only when
 * the two differ (the same price twice says nothing). `extra` follows on the second line (for example the rate per mile).
 */
export function BudgetAmount({
  amount,
  currency,
  className,
  extra,
  testId,
}: {
  amount: number;
  currency: string;
  className?: string;
  extra?: ReactNode;
  testId?: string;
}) {
  const { currency: display, formatAmount, formatOriginal, ratesDay, formatDate } = usePreferences();
  const { t } = useLingui();
  const original = currency !== display ? formatOriginal(amount, currency) : null;
  // A converted amount says it is an estimate, and at which day's rates; the load's own amount stays beneath it.
  const estimate = original
    ? ratesDay
      ? t({
          comment: "Tooltip of an amount converted into the reader's currency",
          message: `Estimate at the rates of ${formatDate(`${ratesDay}T12:00:00Z`)}`,
        })
      : t({
          comment: "Tooltip of an amount converted at the fixed starting rates (no published rate fetched yet)",
          message: "Estimate at fixed starting rates",
        })
    : undefined;
  return (
    <>
      <div className={cn("font-bold text-brand", className)} data-testid={testId} title={estimate}>
        {formatAmount(amount, currency)}
      </div>
      {(original || extra) && (
        <div className="text-xs text-muted-foreground">
          {original}
          {original && extra ? " · " : null}
          {extra}
        </div>
      )}
    </>
  );
}
