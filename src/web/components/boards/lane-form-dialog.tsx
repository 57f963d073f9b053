import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import {
  DEFAULT_LANE_RADIUS,
  EQUIPMENT_TYPES,
  LANE_RADIUS_MAX,
  LANE_RADIUS_MIN,
  type TEquipmentType,
} from "../../../shared/constants";
import { radiusBounds, radiusForInput, radiusFromInput, type TUnits } from "../../../shared/units";
import type { TPlace } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { useEquipmentLabel } from "../loads/equipment-label";
import { PlaceInput } from "../loads/place-input";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../ui/dialog";
import { FieldError, Label, TextField } from "../ui/input";
import { serverMessage, type TLane, useRefreshMarketplaces } from "./shared";

/** A place as the picker filled it: the name shown, and the point searched (null until a place is picked). */
type TPlaceValue = { name: string; latitude: number | null; longitude: number | null };
type TLaneForm = {
  name: string;
  origin: TPlaceValue;
  originRadius: string;
  destination: TPlaceValue;
  destinationRadius: string;
  equipmentTypes: TEquipmentType[];
};
type TErrors = Partial<
  Record<"name" | "origin" | "originRadius" | "destination" | "destinationRadius" | "equipment", string>
>;

const NO_PLACE: TPlaceValue = { name: "", latitude: null, longitude: null };

// Radii are kept in whole miles and typed in the reader's unit (kilometres for metric readers).
const initialForm = (lane: TLane | null, units: TUnits): TLaneForm =>
  lane
    ? {
        name: lane.name ?? "",
        origin: { name: lane.originName, latitude: lane.originLatitude, longitude: lane.originLongitude },
        originRadius: String(radiusForInput(lane.originRadiusMiles, units)),
        destination:
          lane.destinationName != null
            ? { name: lane.destinationName, latitude: lane.destinationLatitude, longitude: lane.destinationLongitude }
            : NO_PLACE,
        destinationRadius: String(radiusForInput(lane.destinationRadiusMiles ?? lane.originRadiusMiles, units)),
        equipmentTypes: lane.equipmentTypes,
      }
    : {
        name: "",
        origin: NO_PLACE,
        originRadius: String(radiusForInput(DEFAULT_LANE_RADIUS, units)),
        destination: NO_PLACE,
        destinationRadius: String(radiusForInput(DEFAULT_LANE_RADIUS, units)),
        equipmentTypes: [],
      };

/** How the place picker's choice is named on the lane: "Addis Ababa, Ethiopia", "Chicago, IL, United States". */
const placeName = (p: TPlace) => [p.city, p.state, p.country].filter(Boolean).join(", ");

/** The server's field names, as this form groups them. */
const FIELD_OF: Record<string, keyof TErrors> = {
  name: "name",
  originName: "origin",
  originLatitude: "origin",
  originLongitude: "origin",
  originRadiusMiles: "originRadius",
  destinationName: "destination",
  destinationLatitude: "destination",
  destinationLongitude: "destination",
  destinationRadiusMiles: "destinationRadius",
};

/** Add a saved lane (no `editing`) or change one. */
export function LaneFormDialog({
  open,
  onOpenChange,
  editing,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  editing: TLane | null;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t`Close`} width="lg" data-testid="lane-dialog">
        <DialogHeader>
          <DialogTitle>
            {editing ? (
              <Trans comment="Dialog title: change a saved lane (a route the driver often runs)">Edit lane</Trans>
            ) : (
              <Trans>Add a lane</Trans>
            )}
          </DialogTitle>
          <DialogDescription>
            <Trans>Where you want loads from, optionally where to, and with which equipment.</Trans>
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from a fresh form. */}
        <LaneForm editing={editing} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function LaneForm({ editing, onDone }: { editing: TLane | null; onDone: () => void }) {
  const { t } = useLingui();
  const equipmentLabel = useEquipmentLabel();
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();
  const { units, distanceUnit } = usePreferences();
  const bounds = radiusBounds(LANE_RADIUS_MIN, LANE_RADIUS_MAX, units);
  const [form, setForm] = useState<TLaneForm>(() => initialForm(editing, units));
  const [errors, setErrors] = useState<TErrors>({});
  const set = (p: Partial<TLaneForm>) => setForm((f) => ({ ...f, ...p }));

  const onServerError = (err: unknown, fallback: string) => {
    if (onUnauthorized(err)) return;
    if (handleSubscriptionRequired(err)) return onDone();
    const info = errorInfo(err);
    if (info.issues.length) {
      const next: TErrors = {};
      for (const i of info.issues)
        next[FIELD_OF[i.path] ?? (i.path.startsWith("equipment") ? "equipment" : "name")] ??= i.message;
      setErrors(next);
    }
    toast({ title: t`Error`, description: serverMessage(err) ?? fallback, variant: "destructive" });
  };
  const create = useMutation(
    trpc.boards.createLane.mutationOptions({
      onSuccess: async (lane) => {
        toast({
          title: t({ message: "Lane saved", comment: "Notice title after a lane was saved" }),
          description: lane.name ?? laneTitle(lane),
          variant: "success",
        });
        onDone();
        await refresh();
      },
      onError: (err) => onServerError(err, t`The lane could not be saved`),
    }),
  );
  const update = useMutation(
    trpc.boards.updateLane.mutationOptions({
      onSuccess: async (lane) => {
        toast({
          title: t({ message: "Lane updated", comment: "Notice title after a lane was changed" }),
          description: lane.name ?? laneTitle(lane),
          variant: "success",
        });
        onDone();
        await refresh();
      },
      onError: (err) => onServerError(err, t`The lane could not be saved`),
    }),
  );
  const pending = create.isPending || update.isPending;

  const radiusError = (text: string) => {
    const n = Number(text);
    const { min, max } = bounds;
    const unit = distanceUnit;
    return text.trim() !== "" && Number.isInteger(n) && n >= min && n <= max
      ? undefined
      : t({
          message: `A whole number from ${min} to ${max} ${unit}`,
          comment: "Lane form error: the radius must be a whole number in the range, {unit} is km or mi",
        });
  };

  const validate = (): TErrors => {
    const next: TErrors = {};
    if (!form.origin.name.trim()) next.origin = t`Origin is required`;
    else if (form.origin.latitude === null) next.origin = t`Pick the origin from the list`;
    next.originRadius = radiusError(form.originRadius);
    if (form.destination.name.trim()) {
      if (form.destination.latitude === null) next.destination = t`Pick the destination from the list`;
      next.destinationRadius = radiusError(form.destinationRadius);
    }
    return next;
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next = validate();
    setErrors(next);
    if (Object.values(next).some(Boolean)) {
      const el = e.currentTarget;
      requestAnimationFrame(() => el.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    const o = form.origin;
    const d = form.destination;
    const hasDestination = d.name.trim() !== "" && d.latitude !== null && d.longitude !== null;
    const lane = {
      name: form.name.trim() || null,
      originName: o.name.trim(),
      originLatitude: o.latitude!,
      originLongitude: o.longitude!,
      originRadiusMiles: radiusFromInput(Number(form.originRadius), units),
      destinationName: hasDestination ? d.name.trim() : null,
      destinationLatitude: hasDestination ? d.latitude : null,
      destinationLongitude: hasDestination ? d.longitude : null,
      destinationRadiusMiles: hasDestination ? radiusFromInput(Number(form.destinationRadius), units) : null,
      equipmentTypes: form.equipmentTypes,
    };
    if (editing) update.mutate({ id: editing.id, ...lane });
    else create.mutate(lane);
  };

  /** A place typed or picked: typing keeps the text and forgets the point until a place is picked again. */
  const placeField = (side: "origin" | "destination", label: ReactNode, hint: ReactNode) => {
    const id = `lane-${side}`;
    const value = form[side];
    const error = errors[side];
    return (
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <PlaceInput
          id={id}
          value={value.name}
          invalid={!!error}
          describedBy={error ? `${id}-error` : `${id}-hint`}
          onChange={(name) => {
            set({ [side]: { name, latitude: null, longitude: null } });
            setErrors((er) => ({ ...er, [side]: undefined }));
          }}
          onPick={(p) => {
            set({ [side]: { name: placeName(p), latitude: p.latitude, longitude: p.longitude } });
            setErrors((er) => ({ ...er, [side]: undefined }));
          }}
        />
        {error ? (
          <FieldError id={`${id}-error`}>{error}</FieldError>
        ) : (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
      </div>
    );
  };

  const hasDestination = form.destination.name.trim() !== "";
  const withinLabel = t({
    message: `Within (${distanceUnit})`,
    comment: "Lane form: how far around the place to search; {distanceUnit} is km or mi",
  });
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate data-testid="lane-form">
      <TextField
        id="lane-name"
        label={<Trans comment="Label of the optional name of a saved lane">Name (optional)</Trans>}
        maxLength={80}
        placeholder={t`e.g. Port run`}
        value={form.name}
        error={errors.name}
        onChange={(e) => set({ name: e.target.value })}
      />
      <div className="grid gap-3 sm:grid-cols-[1fr_9rem]">
        {placeField(
          "origin",
          <Trans comment="Label of the starting place of a lane or search">Origin</Trans>,
          <Trans>Type a city and pick it from the list.</Trans>,
        )}
        <TextField
          id="lane-origin-radius"
          label={withinLabel}
          type="number"
          inputMode="numeric"
          min={bounds.min}
          max={bounds.max}
          step={1}
          value={form.originRadius}
          error={errors.originRadius}
          onChange={(e) => set({ originRadius: e.target.value })}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_9rem]">
        {placeField(
          "destination",
          <Trans comment="Label of the optional destination of a lane or a search">Destination (optional)</Trans>,
          <Trans>Leave empty for loads going anywhere.</Trans>,
        )}
        <TextField
          id="lane-destination-radius"
          label={withinLabel}
          type="number"
          inputMode="numeric"
          min={bounds.min}
          max={bounds.max}
          step={1}
          disabled={!hasDestination}
          value={form.destinationRadius}
          error={hasDestination ? errors.destinationRadius : undefined}
          onChange={(e) => set({ destinationRadius: e.target.value })}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Equipment (none ticked: any)</Trans>
        </legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {EQUIPMENT_TYPES.map((e) => (
            <label key={e} className="flex min-h-9 items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={form.equipmentTypes.includes(e)}
                onChange={(ev) =>
                  set({
                    equipmentTypes: ev.target.checked
                      ? [...form.equipmentTypes, e]
                      : form.equipmentTypes.filter((x) => x !== e),
                  })
                }
              />
              {equipmentLabel(e)}
            </label>
          ))}
        </div>
        <FieldError>{errors.equipment}</FieldError>
      </fieldset>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            <Trans>Cancel</Trans>
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending} data-testid="lane-submit">
          {pending ? (
            <Trans>Saving...</Trans>
          ) : editing ? (
            <Trans>Save Changes</Trans>
          ) : (
            <Trans comment="Button: save a lane (a route the driver often runs)">Save lane</Trans>
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** A lane named by its places, for toasts: "Addis Ababa, Ethiopia → Djibouti, Djibouti". */
export const laneTitle = (lane: Pick<TLane, "originName" | "destinationName">) =>
  lane.destinationName ? `${lane.originName} → ${lane.destinationName}` : lane.originName;
