import { Trans } from "@lingui/react/macro";
import { ArrowRight, Calendar, Weight } from "lucide-react";
import type { TPublicLoad } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { Badge } from "../ui/badge";
import { Card, CardContent } from "../ui/card";
import { BudgetAmount } from "./budget-amount";
import { EquipmentLabel } from "./equipment-label";

/** A compact load card: route, equipment, weight, pickup date and budget in the viewer's currency. */
export function LoadSummaryCard({ load, action }: { load: TPublicLoad; action?: React.ReactNode }) {
  const { formatDate, formatWeight } = usePreferences();
  return (
    <Card data-testid="load-card">
      <CardContent className="grid gap-3 pt-5">
        <div className="flex items-start justify-between gap-2">
          <div className="font-semibold">{load.title}</div>
          {load.isUrgent && (
            <Badge variant="destructive">
              <Trans comment="Badge on a load whose pickup is soon">Urgent</Trans>
            </Badge>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>{load.pickupLocation}</span>
          <ArrowRight className="size-4 text-muted-foreground" />
          <span>{load.deliveryLocation}</span>
        </div>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span className="flex items-center gap-1">
            <Calendar className="size-4" />
            {formatDate(load.pickupDate)}
          </span>
          <span className="flex items-center gap-1">
            <Weight className="size-4" />
            {formatWeight(load.weight)}
          </span>
          <Badge variant="secondary">
            <EquipmentLabel type={load.equipmentType} />
          </Badge>
        </div>
        <div className="flex items-end justify-between gap-2">
          <div>
            <BudgetAmount
              amount={load.budgetAmount}
              currency={load.budgetCurrency}
              className="text-lg"
              testId="load-budget"
            />
          </div>
          {action}
        </div>
      </CardContent>
    </Card>
  );
}
