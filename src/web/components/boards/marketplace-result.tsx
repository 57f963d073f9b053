import { Trans } from "@lingui/react/macro";
import { ArrowRight, Calendar, Truck, Weight } from "lucide-react";
import { usePreferences } from "../../lib/preferences";
import { DistanceBadge, SourceBadge } from "../loads/badges";
import { BudgetAmount } from "../loads/budget-amount";
import { EquipmentLabel } from "../loads/equipment-label";
import { PosterContact } from "../loads/load-card";
import { Badge } from "../ui/badge";
import { Card } from "../ui/card";
import { type TSearchResult, useProviderLabel } from "./shared";
import { SandboxBadge } from "./status-badges";

/** One load found on a board: route, date, equipment, weight, rate, and the poster to call. */
export function MarketplaceResult({ item }: { item: TSearchResult }) {
  const { formatDate, formatWeight, formatDistance, formatRatePerDistance } = usePreferences();
  const providerLabel = useProviderLabel();
  const distance = formatDistance(item.tripMiles, 0);
  const ref = item.externalId;
  const board = item.board;
  return (
    <Card className="p-4" data-testid="marketplace-result" data-external-id={item.externalId}>
      <div className="flex flex-wrap items-center gap-2">
        <SourceBadge type={item.source.type} />
        {board && (
          <Badge variant="secondary" data-testid="board-name">
            {providerLabel(board.provider, true)}
          </Badge>
        )}
        {board?.sandbox && <SandboxBadge />}
        <DistanceBadge miles={item.distance} />
        {board?.poweredBy && (
          <span className="text-xs font-semibold text-muted-foreground" data-testid="powered-by">
            <Trans>Powered by {board.poweredBy}</Trans>
          </span>
        )}
      </div>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="font-semibold" data-testid="result-title">
            {item.title}
          </div>
          <div className="mt-1 flex flex-wrap items-center gap-1.5 text-sm" data-testid="result-route">
            <span>{item.pickupLocation}</span>
            <ArrowRight className="size-4 text-muted-foreground" aria-hidden />
            <span>{item.deliveryLocation}</span>
          </div>
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <span className="flex items-center gap-1">
              <Calendar className="size-4" aria-hidden />
              <time dateTime={item.pickupDate}>
                {formatDate(item.pickupDate, { dateStyle: "medium", timeStyle: "short" })}
              </time>
            </span>
            <span className="flex items-center gap-1">
              <Truck className="size-4" aria-hidden />
              <EquipmentLabel type={item.equipmentType} />
            </span>
            <span className="flex items-center gap-1">
              <Weight className="size-4" aria-hidden />
              {formatWeight(item.weight)}
            </span>
            <span>
              <Trans comment="Load cards: length of the trip from pickup to delivery; {distance} is a number with its unit (120 km)">
                {distance} trip
              </Trans>
            </span>
          </div>
        </div>
        <div className="shrink-0 text-left sm:text-right">
          {item.budgetAmount === 0 ? (
            <span className="text-sm text-muted-foreground" data-testid="result-rate">
              <Trans>Rate not posted</Trans>
            </span>
          ) : (
            <BudgetAmount
              amount={item.budgetAmount}
              currency={item.budgetCurrency}
              className="text-xl"
              testId="result-rate"
              extra={formatRatePerDistance(item.ratePerMile, item.budgetCurrency)}
            />
          )}
        </div>
      </div>
      <div className="mt-3 flex flex-col gap-2 border-t pt-3 sm:flex-row sm:items-center sm:justify-between">
        {item.source.contact ? (
          <PosterContact contact={item.source.contact} />
        ) : (
          <span className="text-sm text-muted-foreground">
            <Trans>The board gave no contact for this load.</Trans>
          </span>
        )}
        <span className="text-xs text-muted-foreground">
          <Trans comment="Outside board's load: its reference number on that board">Ref. {ref}</Trans>
        </span>
      </div>
    </Card>
  );
}
