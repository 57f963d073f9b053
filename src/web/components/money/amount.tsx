import { useLingui } from "@lingui/react/macro";
import { ESTIMATE_MARK } from "../../../shared/money";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";

/**
 * An amount in the reader's display currency. Converted from another currency it is only an estimate, so it carries
 * "≈" and says so in its tooltip and to screen readers; an amount in its own currency is shown as it is. `original`
 * adds the amount as posted to that note (where no second line shows it).
 */
export function Amount({
  amount,
  currency,
  compact,
  original,
  className,
  testId,
}: {
  amount: number;
  currency: string;
  compact?: boolean;
  original?: boolean;
  className?: string;
  testId?: string;
}) {
  const { showAmount, formatOriginal, ratesDay } = usePreferences();
  const { t } = useLingui();
  const shown = showAmount(amount, currency, compact);
  if (!shown.estimate)
    return (
      <span className={className} data-testid={testId}>
        {shown.text}
      </span>
    );
  const estimate = ratesDay
    ? t({
        comment: "Tooltip and screen-reader note of an amount converted into the reader's currency (shown with ≈)",
        message: "Estimate at today's rate",
      })
    : t({
        comment: "Tooltip of an amount converted at the fixed starting rates (no published rate fetched yet)",
        message: "Estimate at fixed starting rates",
      });
  const note = original ? `${estimate} · ${formatOriginal(amount, currency)}` : estimate;
  return (
    <span className={cn("whitespace-nowrap", className)} title={note} data-testid={testId} data-estimate="">
      <span aria-hidden>{`${ESTIMATE_MARK}\u00a0`}</span>
      {shown.text}
      <span className="sr-only">{` (${note})`}</span>
    </span>
  );
}
