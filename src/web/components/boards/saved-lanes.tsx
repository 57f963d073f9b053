import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowRight, Pencil, Plus, Route } from "lucide-react";
import { useState } from "react";
import { SAVED_LANES_MAX } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { useEquipmentLabel } from "../loads/equipment-label";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { DeleteLaneDialog } from "./delete-lane-dialog";
import { LaneFormDialog } from "./lane-form-dialog";
import type { TLane } from "./shared";

/**
 * The lanes sync searches besides the user's last location: list, add, edit, delete. Boards with sync on search each
 * lane every interval; the Search Loads tab and the load board are not limited to them.
 */
export function SavedLanes() {
  const lanes = useQuery(trpc.boards.lanes.queryOptions());
  // null: closed; "new": adding; a lane: editing it.
  const [dialog, setDialog] = useState<TLane | "new" | null>(null);
  const editing = dialog !== null && dialog !== "new" ? dialog : null;
  const count = lanes.data?.length ?? 0;
  const full = count >= SAVED_LANES_MAX;
  const max = SAVED_LANES_MAX;

  return (
    <section className="grid gap-4" aria-labelledby="saved-lanes-title" data-testid="saved-lanes">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1">
          <h2 id="saved-lanes-title" className="text-lg font-semibold">
            <Trans comment="Marketplaces page heading: the lanes (routes) the driver saved">Saved lanes</Trans>
          </h2>
          <p className="text-sm text-muted-foreground">
            <Trans>Sync searches your boards around your last location and along each lane you save here.</Trans>
          </p>
        </div>
        {lanes.isSuccess && count > 0 && (
          <div className="grid gap-1 sm:justify-items-end">
            <Button onClick={() => setDialog("new")} disabled={full} data-testid="add-lane">
              <Plus aria-hidden />
              <Trans comment="Button: save a new lane (a route the driver often runs)">Add lane</Trans>
            </Button>
            <p className="text-xs text-muted-foreground" data-testid="lane-count">
              {full ? (
                <Trans>All {max} lanes used: delete one to add another.</Trans>
              ) : (
                <Trans comment="Saved lanes: how many lanes are saved out of the maximum allowed">
                  {count} of {max} lanes
                </Trans>
              )}
            </p>
          </div>
        )}
      </div>
      {lanes.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans>Loading your lanes…</Trans>
        </p>
      ) : lanes.isError ? (
        <LoadError
          title={<Trans>Your saved lanes could not be loaded.</Trans>}
          error={lanes.error}
          onRetry={lanes.refetch}
        />
      ) : count === 0 ? (
        <Card className="grid justify-items-center gap-3 p-8 text-center" data-testid="no-lanes">
          <Route className="size-8 text-muted-foreground" aria-hidden />
          <p className="font-medium">
            <Trans>No saved lanes yet</Trans>
          </p>
          <p className="max-w-md text-sm text-muted-foreground">
            <Trans>
              Save the lanes you run, such as Addis Ababa to Djibouti within 150 miles with a dry van. Every board with
              sync switched on searches them at each sync, even when MyTess does not know where you are.
            </Trans>
          </p>
          <Button variant="outline" onClick={() => setDialog("new")} data-testid="add-first-lane">
            <Plus aria-hidden />
            <Trans>Add your first lane</Trans>
          </Button>
        </Card>
      ) : (
        <ul className="grid gap-3">
          {lanes.data.map((lane) => (
            <li key={lane.id}>
              <LaneCard lane={lane} onEdit={() => setDialog(lane)} />
            </li>
          ))}
        </ul>
      )}
      <LaneFormDialog open={dialog !== null} onOpenChange={(open) => !open && setDialog(null)} editing={editing} />
    </section>
  );
}

/** One lane: its name, from where (and how far) to where (and how far), its equipment, and its actions. */
function LaneCard({ lane, onEdit }: { lane: TLane; onEdit: () => void }) {
  const { t } = useLingui();
  const { formatDistance } = usePreferences();
  const equipmentLabel = useEquipmentLabel();
  const within = (radius: number) => {
    const distance = formatDistance(radius, 0);
    return t({
      message: `within ${distance}`,
      comment: "Saved lane: within {distance} (a number with its unit, 150 km) of the place",
    });
  };
  return (
    <Card className="p-4" data-testid="lane-card" data-lane-id={lane.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-2">
          {lane.name && (
            <h3 className="font-semibold" data-testid="lane-name">
              {lane.name}
            </h3>
          )}
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="lane-route">
            <span className="min-w-0 break-words">
              <span className="font-medium">{lane.originName}</span>{" "}
              <span className="text-muted-foreground">({within(lane.originRadiusMiles)})</span>
            </span>
            <ArrowRight
              className="size-4 shrink-0 text-muted-foreground"
              aria-label={t({
                message: "to",
                comment: "Screen-reader text of the arrow between a lane's origin and destination",
              })}
            />
            {lane.destinationName ? (
              <span className="min-w-0 break-words">
                <span className="font-medium">{lane.destinationName}</span>{" "}
                <span className="text-muted-foreground">
                  ({within(lane.destinationRadiusMiles ?? lane.originRadiusMiles)})
                </span>
              </span>
            ) : (
              <span className="text-muted-foreground">
                <Trans comment="Saved lane: no destination chosen, loads going anywhere">Anywhere</Trans>
              </span>
            )}
          </p>
          <div className="flex flex-wrap gap-1.5" data-testid="lane-equipment">
            {lane.equipmentTypes.length ? (
              lane.equipmentTypes.map((e) => (
                <Badge key={e} variant="secondary">
                  {equipmentLabel(e)}
                </Badge>
              ))
            ) : (
              <Badge variant="outline">
                <Trans comment="Saved lane badge and search choice: any truck type (equipment = type of truck or trailer)">
                  Any equipment
                </Trans>
              </Badge>
            )}
          </div>
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
          <Button size="sm" variant="outline" onClick={onEdit} data-testid="edit-lane">
            <Pencil aria-hidden />
            <Trans>Edit</Trans>
          </Button>
          <DeleteLaneDialog lane={lane} />
        </div>
      </div>
    </Card>
  );
}
