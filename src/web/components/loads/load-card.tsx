import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { ArrowRight, Calendar, Truck, Weight } from "lucide-react";
import type { ReactNode } from "react";
import type { TPublicLoad } from "../../../server/domain/loads/serialize";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Badge } from "../ui/badge";
import { Card } from "../ui/card";
import { DistanceBadge, LoadStatusBadge, SourceBadge } from "./badges";
import { BudgetAmount } from "./budget-amount";
import { EquipmentLabel } from "./equipment-label";
import { PendingBadge } from "./pending-badge";
import { ShareMenu } from "./share-menu";

export const shareContentFor = (load: Pick<TPublicLoad, "id" | "title" | "pickupLocation" | "deliveryLocation">) => ({
  title: `${load.title} · MyTess`,
  description: `${load.pickupLocation} → ${load.deliveryLocation}`,
  url: `${window.location.origin}/loads/${load.id}`,
  hashtags: ["MyTess", "freight", "loadboard"],
});

/** A load on the board: source, distance to pickup, route, dates, equipment, weight, budget and rate per mile. */
export function LoadCard({
  load,
  actions,
  highlighted,
}: {
  load: TPublicLoad;
  actions?: ReactNode;
  highlighted?: boolean;
}) {
  const { formatOriginal, formatDate, formatNumber } = usePreferences();
  const weight = formatNumber(load.weight);
  const miles = formatNumber(load.tripMiles, { maximumFractionDigits: 0 });
  const perMile = formatOriginal(load.ratePerMile, load.budgetCurrency);
  return (
    <Card
      id={`load-${load.id}`}
      data-testid="load-card"
      data-load-id={load.id}
      className={cn("p-4 transition", highlighted && "ring-4 ring-brand/60")}
    >
      <div className="flex flex-wrap items-center gap-2">
        <SourceBadge type={load.source.type} />
        <DistanceBadge miles={load.distance} />
        {load.isUrgent && (
          <Badge variant="destructive">
            <Trans>Urgent</Trans>
          </Badge>
        )}
        {load.status !== "posted" && <LoadStatusBadge status={load.status} />}
        <PendingBadge loadId={load.id} />
      </div>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <Link to="/loads/$id" params={{ id: String(load.id) }} className="font-semibold hover:underline">
            {load.title}
          </Link>
          <div className="mt-1 flex flex-wrap items-center gap-1.5 text-sm">
            <span>{load.pickupLocation}</span>
            <ArrowRight className="size-4 text-muted-foreground" />
            <span>{load.deliveryLocation}</span>
          </div>
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <span className="flex items-center gap-1">
              <Calendar className="size-4" />
              {formatDate(load.pickupDate, { dateStyle: "medium", timeStyle: "short" })}
            </span>
            <span className="flex items-center gap-1">
              <Truck className="size-4" />
              <EquipmentLabel type={load.equipmentType} />
            </span>
            <span className="flex items-center gap-1">
              <Weight className="size-4" />
              <Trans>{weight} lbs</Trans>
            </span>
            <span>
              <Trans>{miles} mi trip</Trans>
            </span>
          </div>
        </div>
        <div className="shrink-0 text-left sm:text-right">
          <BudgetAmount
            amount={load.budgetAmount}
            currency={load.budgetCurrency}
            className="text-xl"
            testId="load-budget"
            extra={<Trans>{perMile}/mi</Trans>}
          />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
        <ShareMenu content={shareContentFor(load)} />
        {actions}
      </div>
    </Card>
  );
}
