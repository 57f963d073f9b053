import { Trans, useLingui } from "@lingui/react/macro";
import { BadgeCheck } from "lucide-react";
import type { TVerifiedBadge } from "../../../shared/schemas/answers/verification";
import { Badge } from "../ui/badge";

/** What an approved verification shows: "Trade licence · TIN · Insurance until 2027-03-01" (a lapsed part says so). */
export function useVerifiedParts() {
  const { t } = useLingui();
  return (b: TVerifiedBadge) => {
    const day = b.insuranceUntil;
    return [
      b.tradeLicence && t({ message: "Trade licence", comment: "Verified badge: the trade licence was checked" }),
      b.tin && t({ message: "TIN", comment: "Verified badge: the taxpayer identification number was checked" }),
      b.mc && t({ message: "MC number", comment: "Verified badge: the US motor carrier (MC) number was checked" }),
      b.dot && t({ message: "DOT number", comment: "Verified badge: the US DOT number was checked" }),
      b.driversLicence &&
        t({ message: "Driver's licence", comment: "Verified badge: the driver's licence was checked" }),
      b.insuranceUntil &&
        (b.insuranceLapsed
          ? t({
              message: `Insurance lapsed ${day}`,
              comment: "Verified badge: the insurance certificate's last day has passed; {day} is that date",
            })
          : t({
              message: `Insurance until ${day}`,
              comment: "Verified badge: the insurance holds through {day}, a date such as 2027-03-01",
            })),
    ]
      .filter(Boolean)
      .join(" · ");
  };
}

/** The "Verified" badge with what was verified beside it; nothing for a subject never approved. */
export function VerifiedBadge({ badge, compact = false }: { badge: TVerifiedBadge | null; compact?: boolean }) {
  const parts = useVerifiedParts();
  if (!badge) return null;
  const what = parts(badge);
  return (
    <span className="inline-flex flex-wrap items-center gap-1" data-testid="verified-badge">
      <Badge variant="success" title={what}>
        <BadgeCheck className="size-3.5" aria-hidden />
        <Trans comment="Badge on a shipper or carrier whose documents an operator checked">Verified</Trans>
      </Badge>
      {!compact && what && (
        <span className="text-xs text-muted-foreground" data-testid="verified-parts">
          {what}
        </span>
      )}
    </span>
  );
}
