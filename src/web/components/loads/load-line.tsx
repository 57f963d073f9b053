import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Amount } from "../money/amount";
import { VerifiedMark } from "../trust/trust";
import { rowLinkProps } from "../ui/table";
import { DistanceBadge, InvitedBadge, LoadStatusBadge } from "./badges";
import { EquipmentLabel } from "./equipment-label";
import type { TTableLoad } from "./load-table";
import { PendingBadge } from "./pending-badge";

/**
 * A load on a phone's board as two lines, the way freight apps list them: the lane and the rate, then the distance to
 * pickup, the pickup day, equipment, weight and the rate per mile or km; the action (Quick Bid, or calling an outside
 * board's poster) at the end. The whole line opens the load. Four or more fit a 390×844 screen under the toolbar.
 */
export function LoadLine({ load: l, action }: { load: TTableLoad; action: ReactNode }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { formatDate, formatWeight, formatRatePerDistance } = usePreferences();
  const external = l.source.type === "external";
  const open: Partial<ReturnType<typeof rowLinkProps>> =
    l.id > 0 ? rowLinkProps(() => navigate({ to: "/loads/$id", params: { id: String(l.id) } })) : {};
  const noRate = external && l.budgetAmount === 0;
  const lane = (
    <>
      {l.pickupCity}
      <span aria-hidden className="px-1 font-normal text-muted-foreground">
        →
      </span>
      <span className="sr-only">
        <Trans comment="Screen-reader word between a load's origin and destination">to</Trans>
      </span>
      {l.deliveryCity}
    </>
  );
  return (
    <li
      data-testid="load-line"
      data-load-id={l.id}
      data-title={l.title}
      {...open}
      className={cn(open.className, "flex items-center gap-2 px-3 py-1.5")}
    >
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-center gap-1.5">
          {l.isUrgent && (
            <span className="size-2 shrink-0 rounded-full bg-destructive" title={t`Urgent`} data-testid="urgent-mark">
              <span className="sr-only">
                <Trans>Urgent</Trans>
              </span>
            </span>
          )}
          {l.id > 0 ? (
            <Link
              to="/loads/$id"
              params={{ id: String(l.id) }}
              className="truncate font-semibold"
              title={`${l.title} · ${l.pickupLocation} → ${l.deliveryLocation}`}
            >
              {lane}
              <span className="sr-only">{` · ${l.title}`}</span>
            </Link>
          ) : (
            <span className="truncate font-semibold" title={`${l.title} · ${l.pickupLocation} → ${l.deliveryLocation}`}>
              {lane}
            </span>
          )}
          {l.shipper && <VerifiedMark badge={l.shipper.verified} />}
          <InvitedBadge invited={l.invited} compact />
          {l.status !== "posted" && <LoadStatusBadge status={l.status} />}
        </div>
        <div className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
          <DistanceBadge miles={l.distance} compact />
          <span className="truncate">
            {formatDate(l.pickupDate, { dateStyle: "medium" })}
            {" · "}
            <EquipmentLabel type={l.equipmentType} />
            {" · "}
            <span data-testid="load-weight">{formatWeight(l.weight)}</span>
          </span>
        </div>
      </div>
      <div className="shrink-0 text-right">
        {noRate ? (
          <span className="text-xs text-muted-foreground" data-testid="load-budget">
            <Trans>Rate not posted</Trans>
          </span>
        ) : (
          <>
            <div className="font-bold text-brand tabular-nums" data-testid="load-budget">
              <Amount amount={l.budgetAmount} currency={l.budgetCurrency} original />
            </div>
            <div className="text-xs text-muted-foreground tabular-nums" data-testid="load-rate-per-distance">
              {formatRatePerDistance(l.ratePerMile, l.budgetCurrency)}
            </div>
          </>
        )}
      </div>
      {/* A phone's touch target: the row's button is 44 px high whatever size it was made with. */}
      <div className="flex shrink-0 items-center gap-1 [&_button]:min-h-11">
        <PendingBadge loadId={l.id} />
        {action}
      </div>
    </li>
  );
}
