import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { errorInfo, trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { VerifiedBadge } from "../verification/verified-badge";
import { RatingFigure, usePaysIn } from "./trust";

/** A company's public profile: who it is, its badge and its members' record. Anyone may open it. */
export function CompanyProfile({ id }: { id: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const { formatDate, formatNumber } = usePreferences();
  const paysIn = usePaysIn();
  const q = useQuery(
    trpc.trust.company.queryOptions({ id }, { retry: (count, err) => errorInfo(err).status === 0 && count < 2 }),
  );
  const status = q.error ? errorInfo(q.error).status : null;
  if (q.isPending && !online)
    return (
      <Card className="p-8 text-center" data-testid="company-offline">
        <p className="text-muted-foreground">
          <Trans>You're offline. The company's profile shows once you're back online.</Trans>
        </p>
      </Card>
    );
  if (q.isPending)
    return (
      <p className="text-muted-foreground" role="status">
        <Trans comment="Shown while a company's public profile is fetched">Loading the company...</Trans>
      </p>
    );
  if (!q.data && (status === 404 || status === 400))
    return (
      <Card className="p-8 text-center" data-testid="company-missing">
        <h1 className="text-xl font-semibold">
          <Trans comment="Company profile page: the id names no company">Company not found</Trans>
        </h1>
      </Card>
    );
  if (!q.data)
    return (
      <LoadError
        card
        testId="company-error"
        title={<Trans>The company's profile could not be loaded.</Trans>}
        error={q.error}
        onRetry={q.refetch}
      />
    );
  const c = q.data;
  const pays = paysIn(c.paysInHours);
  const kind =
    c.kind === "carrier"
      ? t({
          message: "Carrier company",
          comment: "Company profile: a trucking company (fleet) whose drivers haul loads",
        })
      : t({ message: "Shipper company", comment: "Company profile: a business that posts loads" });
  return (
    <Card data-testid="company-profile">
      <CardHeader>
        <CardTitle className="text-2xl">
          <h1 data-testid="company-name">{c.name}</h1>
        </CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{kind}</Badge>
          <span className="text-sm text-muted-foreground">{c.country}</span>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {c.verified ? (
          <VerifiedBadge badge={c.verified} />
        ) : (
          <p className="text-muted-foreground" data-testid="company-unverified">
            <Trans>Not verified yet: no operator has checked this company's documents.</Trans>
          </p>
        )}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <div>
            <dt className="text-muted-foreground">
              {t({ message: "Rating", comment: "Company profile: label of the members' average rating" })}
            </dt>
            <dd className="font-semibold">
              <RatingFigure figures={c} />
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">
              {c.kind === "carrier"
                ? t({ message: "Trips", comment: "Company profile: label of how many trips its drivers completed" })
                : t({
                    message: "Loads posted",
                    comment: "Company profile: label of how many loads its members posted",
                  })}
            </dt>
            <dd className="font-semibold" data-testid="company-record">
              {formatNumber(c.kind === "carrier" ? c.trips : c.loadsPosted)}
            </dd>
          </div>
          {c.kind === "shipper" && (
            <div>
              <dt className="text-muted-foreground">
                {t({
                  message: "Completed loads",
                  comment: "Company profile: label of how many of a shipper company's loads were completed",
                })}
              </dt>
              <dd className="font-semibold" data-testid="company-completed">
                {formatNumber(c.trips)}
              </dd>
            </div>
          )}
          <div>
            <dt className="text-muted-foreground">
              {t({ message: "Members", comment: "Company profile: label of how many people belong to the company" })}
            </dt>
            <dd className="font-semibold">{plural(c.members, { one: "# person", other: "# people" })}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">
              {t({ message: "On MyTess since", comment: "Company profile: label of the date the company was made" })}
            </dt>
            <dd className="font-semibold">{formatDate(c.since, { dateStyle: "medium" })}</dd>
          </div>
        </dl>
        {pays && (
          <p className="flex items-center gap-1 text-muted-foreground" data-testid="company-pays-in">
            <Clock className="size-3.5" aria-hidden />
            <span
              title={t({
                message: "Median time from delivery to payment over their last 20 paid loads",
                comment: "Tooltip of a shipper's 'Pays in ~2 days' on the load page",
              })}
            >
              {pays}
            </span>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
