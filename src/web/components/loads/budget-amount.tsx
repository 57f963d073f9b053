import type { ReactNode } from "react";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Amount } from "../money/amount";

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
  const { currency: display, formatOriginal } = usePreferences();
  const original = currency !== display ? formatOriginal(amount, currency) : null;
  // A converted amount is marked as an estimate (by `Amount`); the load's own amount stays beneath it.
  return (
    <>
      <div className={cn("font-bold text-brand", className)} data-testid={testId}>
        <Amount amount={amount} currency={currency} />
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
