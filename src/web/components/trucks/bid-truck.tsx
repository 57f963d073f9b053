import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Truck } from "lucide-react";
import type { TBidTruck } from "../../../shared/schemas/answers/common";
import { weightIn } from "../../../shared/units";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { useEquipmentLabel } from "../loads/equipment-label";
import { Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";

type TTruckFacts = Pick<TBidTruck, "equipmentType" | "capacityLbs" | "plate">;

/** A truck in one line: its equipment type, capacity in the reader's unit, and plate when it has one. */
const useTruckText = () => {
  const equipment = useEquipmentLabel();
  const { formatNumber, units, weightUnit } = usePreferences();
  return (truck: TTruckFacts) =>
    [
      equipment(truck.equipmentType),
      `${formatNumber(Math.round(weightIn(truck.capacityLbs, units)))} ${weightUnit}`,
      truck.plate,
    ]
      .filter(Boolean)
      .join(" · ");
};

/** The truck a bid offers, on the shipper's list of bids and the awarded load's driver card. */
export function BidTruckLine({ truck, className }: { truck: TTruckFacts | null; className?: string }) {
  const { t } = useLingui();
  const text = useTruckText();
  if (!truck) return null;
  const label = t({
    message: "Truck",
    comment: "Label before the truck a driver's bid offers (type, capacity, plate)",
  });
  return (
    <div className={`flex items-center gap-1 text-xs ${className ?? ""}`} data-testid="bid-truck">
      <Truck className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      <span className="sr-only">{label}: </span>
      <span>{text(truck)}</span>
    </div>
  );
}

/**
 * The bid form's optional "Truck" select of the driver's own trucks, sent as `truckId` (empty for none). A driver with
 * no truck posted sees a link to add one instead; the bid goes without a truck if the list cannot be loaded.
 */
export function BidTruckField({ id, defaultTruckId }: { id: string; defaultTruckId?: number | null }) {
  const { t } = useLingui();
  const text = useTruckText();
  // Asked again each time the form opens: a truck posted from another tab or device since must be offered (the list
  // kept from before still shows meanwhile).
  const mine = useQuery(trpc.trucks.mine.queryOptions(undefined, { staleTime: 0 }));
  // Offline with nothing fetched yet, the query waits for the connection: say so rather than "Loading" for ever.
  if (mine.isPending && mine.fetchStatus === "paused")
    return (
      <p className="text-sm text-muted-foreground" role="status" data-testid="bid-truck-offline">
        <Trans comment="Bid form, offline: the driver's trucks cannot be fetched; the bid can still be sent">
          You are offline: your trucks will show when you are back online. You can bid without naming one.
        </Trans>
      </p>
    );
  if (mine.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status" data-testid="bid-truck-loading">
        <Trans comment="Bid form: shown while the driver's trucks are fetched for the Truck field">
          Loading your trucks...
        </Trans>
      </p>
    );
  if (mine.isError)
    return (
      <p className="text-sm text-muted-foreground" role="status" data-testid="bid-truck-error">
        <Trans comment="Bid form: the driver's trucks could not be fetched; the bid can still be sent">
          Your trucks could not be loaded; you can bid without naming one.
        </Trans>
      </p>
    );
  if (!mine.data.length)
    return (
      <p className="text-sm text-muted-foreground" data-testid="bid-truck-none">
        <Trans comment="Bid form: the driver has no truck posted to offer with the bid; the link opens My trucks">
          Shippers see the truck you offer.{" "}
          <Link to="/trucks" className="inline-flex min-h-11 items-center font-medium underline md:min-h-0">
            Add a truck
          </Link>
        </Trans>
      </p>
    );
  const known = mine.data.some((truck) => truck.id === defaultTruckId);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        <Trans comment="Label of the optional field in the bid form: which of the driver's trucks the bid offers">
          Truck (optional)
        </Trans>
      </Label>
      <NativeSelect id={id} name="truckId" className="h-11 md:h-9" defaultValue={known ? String(defaultTruckId) : ""}>
        <option value="">
          {t({ message: "No truck named", comment: "Bid form: the bid offers no particular truck" })}
        </option>
        {mine.data.map((truck) => (
          <option key={truck.id} value={truck.id}>
            {text(truck)}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
