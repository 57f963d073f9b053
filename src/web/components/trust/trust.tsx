import { plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { BadgeCheck, Building2, Clock, Star } from "lucide-react";
import type { ReactNode } from "react";
import type { TBidCarrier, TBoardShipper } from "../../../shared/schemas/answers/common";
import type { TVerifiedBadge } from "../../../shared/schemas/answers/verification";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { useVerifiedParts, VerifiedBadge } from "../verification/verified-badge";

/**
 * A name that opens the company's public profile when there is a company behind it. Inside a board row the click stays
 * the link's (the row opens the load otherwise).
 */
export function TrustName({
  name,
  companyId,
  className,
}: {
  name: string;
  companyId: number | null;
  className?: string;
}) {
  if (companyId == null) return <span className={className}>{name}</span>;
  return (
    <Link
      to="/companies/$id"
      params={{ id: String(companyId) }}
      className={cn("underline-offset-2 hover:underline", className)}
      onClick={(e) => e.stopPropagation()}
      data-testid="company-link"
    >
      {name}
    </Link>
  );
}

/**
 * A building before a name that is a company's (a load posted for a shipper company, a bid made for a carrier company),
 * so it is not taken for a person; what it means is its tooltip and its screen-reader text.
 */
export function CompanyMark({ kind }: { kind: "shipper" | "carrier" }) {
  const { t } = useLingui();
  const label =
    kind === "shipper"
      ? t({ message: "Shipper company", comment: "Company profile: a business that posts loads" })
      : t({ message: "Carrier company", comment: "Bid row: label of the company the driver bid for" });
  return (
    <span className="inline-flex shrink-0 text-muted-foreground" title={label} data-testid="company-mark">
      <Building2 className="size-3.5" aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The Verified badge as one icon, for dense rows: what was verified is its tooltip and its screen-reader text. */
export function VerifiedMark({ badge }: { badge: TVerifiedBadge | null }) {
  const { t } = useLingui();
  const parts = useVerifiedParts();
  if (!badge) return null;
  const label = t({
    message: `Verified: ${parts(badge)}`,
    comment: "Tooltip of the Verified mark on a board row: {0} lists what was checked (Trade licence · TIN · …)",
  });
  return (
    <span className="inline-flex shrink-0 text-emerald-700" title={label} data-testid="verified-mark">
      <BadgeCheck className="size-3.5" aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** "Pays in ~2 days": the median time from delivery to the release of the money, in hours under a day. */
export function usePaysIn() {
  const { t } = useLingui();
  return (hours: number | null) => {
    if (hours == null) return null;
    if (hours < 24) {
      const n = Math.max(1, hours);
      return t({
        message: plural(n, { one: "Pays in ~# hour", other: "Pays in ~# hours" }),
        comment: "Trust signal of a shipper: the usual time from delivery to the release of the driver's money",
      });
    }
    const days = Math.round(hours / 24);
    return t({
      message: plural(days, { one: "Pays in ~# day", other: "Pays in ~# days" }),
      comment: "Trust signal of a shipper: the usual time from delivery to the release of the driver's money",
    });
  };
}

/** A rating as "★ 4.5 (2)", or "No ratings yet". */
export function RatingFigure({ figures }: { figures: { rating: number | null; ratings: number } }) {
  const { t } = useLingui();
  const { formatNumber } = usePreferences();
  const rating = figures.rating;
  if (rating == null)
    return (
      <span className="text-muted-foreground">
        {t({ message: "No ratings yet", comment: "Tooltip of a shipper on the load board who has not been rated" })}
      </span>
    );
  const label = t({
    message: `Rated ${rating} of 5 by ${figures.ratings}`,
    comment: "Tooltip of a shipper's rating on the load board: the average (out of 5) and how many rated",
  });
  return (
    <span className="inline-flex items-center gap-1" title={label} data-testid="trust-rating">
      <Star className="size-3.5 text-amber-600" aria-hidden />
      <span aria-hidden>
        {formatNumber(rating, { maximumFractionDigits: 1 })} ({formatNumber(figures.ratings)})
      </span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

function Figure({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <span className="inline-flex items-center gap-1" data-testid={testId}>
      {children}
    </span>
  );
}

/**
 * The load page's block about who posted the load: the company it was posted for (its profile, with the company's
 * figures) or the person; badge, rating, loads posted and completed, pay speed.
 */
export function ShipperTrustCard({ shipper }: { shipper: TBoardShipper }) {
  const { t } = useLingui();
  const paysIn = usePaysIn();
  const pays = paysIn(shipper.paysInHours);
  return (
    <Card data-testid="shipper-trust">
      <CardHeader className="pb-2">
        <CardTitle className="text-base">
          {t({ message: "Shipper", comment: "Load page: heading of the block about who posted the load" })}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <div className="flex flex-wrap items-center gap-2" data-testid="shipper-name" data-kind={shipper.kind}>
          {shipper.kind === "company" && <CompanyMark kind="shipper" />}
          <TrustName name={shipper.name} companyId={shipper.companyId} className="font-semibold" />
          <VerifiedBadge badge={shipper.verified} />
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-muted-foreground">
          <RatingFigure figures={shipper} />
          <Figure testId="loads-posted">
            {plural(shipper.loadsPosted, { one: "# load posted", other: "# loads posted" })}
          </Figure>
          <Figure testId="loads-completed">
            {t({
              message: plural(shipper.completed, { one: "# completed", other: "# completed" }),
              comment: "Load page, Shipper block: how many of the shipper's (or its company's) loads were completed",
            })}
          </Figure>
          {pays && (
            <Figure testId="pays-in">
              <Clock className="size-3.5" aria-hidden />
              <span
                title={t({
                  message: "Median time from delivery to payment over their last 20 paid loads",
                  comment: "Tooltip of a shipper's 'Pays in ~2 days' on the load page",
                })}
              >
                {pays}
              </span>
            </Figure>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * A bid's carrier on the shipper's bid list: the company it was made for (its profile) with the company's rating and
 * completed trips, and the badge; a driver's own bid shows only the driver's badge (their figures are the bid's).
 */
export function CarrierTrustLine({ carrier }: { carrier: TBidCarrier }) {
  const { t } = useLingui();
  if (carrier.kind !== "company" && !carrier.verified) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="carrier-trust" data-kind={carrier.kind}>
      {carrier.kind === "company" && carrier.companyName != null && (
        <>
          <span className="inline-flex items-center gap-1">
            <CompanyMark kind="carrier" />
            <TrustName name={carrier.companyName} companyId={carrier.companyId} className="font-medium" />
          </span>
          <RatingFigure figures={carrier} />
          <Figure testId="carrier-trips">
            {t({
              message: plural(carrier.trips, { one: "# trip completed", other: "# trips completed" }),
              comment: "Bid row: how many trips the carrier company the driver bid for has completed",
            })}
          </Figure>
        </>
      )}
      <VerifiedBadge badge={carrier.verified} />
    </div>
  );
}
