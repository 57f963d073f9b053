import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { EQUIPMENT_TYPES, type TEquipmentType } from "../../../shared/constants";
import { weightToPounds } from "../../../shared/units";
import type { TPlace } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
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
import { NativeSelect } from "../ui/textarea";

/** A place as the picker filled it: the name shown, and the point (null until a place is picked). */
type TPlaceValue = { name: string; latitude: number | null; longitude: number | null };
const NO_PLACE: TPlaceValue = { name: "", latitude: null, longitude: null };
type TField = "origin" | "destination" | "availableFrom" | "availableTo" | "equipmentType" | "capacity" | "plate";
type TErrors = Partial<Record<TField, string>>;

/** The server's field names, as this form groups them. */
const FIELD_OF: Record<string, TField> = {
  originName: "origin",
  originLatitude: "origin",
  originLongitude: "origin",
  destinationName: "destination",
  destinationLatitude: "destination",
  destinationLongitude: "destination",
  availableFrom: "availableFrom",
  availableTo: "availableTo",
  equipmentType: "equipmentType",
  capacityLbs: "capacity",
  plate: "plate",
};

const placeName = (p: TPlace) => [p.city, p.state, p.country].filter(Boolean).join(", ");
const today = () => new Date().toISOString().slice(0, 10);

/** Post a truck's availability: where and from when it is free, where it would go (or anywhere), what it carries. */
export function TruckFormDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t`Close`} width="lg" data-testid="truck-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Dialog title and button: tell shippers when and where the driver's truck is free">
              Post a truck
            </Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              Shippers searching near the place you start from will see your truck and can invite you to bid.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from a fresh form. */}
        <TruckForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TruckForm({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const equipmentLabel = useEquipmentLabel();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const { units, weightUnit } = usePreferences();
  const [origin, setOrigin] = useState<TPlaceValue>(NO_PLACE);
  const [destination, setDestination] = useState<TPlaceValue>(NO_PLACE);
  const [errors, setErrors] = useState<TErrors>({});

  const create = useMutation(
    trpc.trucks.create.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({
            message: "Truck posted",
            comment: "Notice title after a driver posted their truck's availability",
          }),
          variant: "success",
        });
        onDone();
        await queryClient.invalidateQueries({ queryKey: trpc.trucks.mine.queryKey() });
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        const info = errorInfo(err);
        if (info.issues.length) {
          const next: TErrors = {};
          for (const i of info.issues) next[FIELD_OF[i.path] ?? "origin"] ??= i.message;
          setErrors(next);
        }
        toast({ title: t`Error`, description: t`The truck could not be posted.`, variant: "destructive" });
      },
    }),
  );

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const str = (k: string) => String(f.get(k) ?? "").trim();
    const required = t`Required`;
    const next: TErrors = {};
    if (!origin.name.trim()) next.origin = required;
    else if (origin.latitude === null) next.origin = t`Pick the place from the list`;
    if (destination.name.trim() && destination.latitude === null)
      next.destination = t`Pick the destination from the list`;
    const from = str("availableFrom");
    const to = str("availableTo");
    if (!from) next.availableFrom = required;
    if (!to) next.availableTo = required;
    else if (from && to < from) next.availableTo = t`Must be on or after the first day`;
    if (!str("equipmentType")) next.equipmentType = required;
    const capacity = str("capacity") === "" ? Number.NaN : Number(str("capacity"));
    if (!(capacity > 0)) next.capacity = t`Enter a capacity greater than 0`;
    setErrors(next);
    if (Object.values(next).some(Boolean)) {
      const form = e.currentTarget;
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    const hasDestination = destination.name.trim() !== "" && destination.latitude !== null;
    create.mutate({
      originName: origin.name.trim(),
      originLatitude: origin.latitude!,
      originLongitude: origin.longitude!,
      availableFrom: from,
      availableTo: to,
      destinationName: hasDestination ? destination.name.trim() : null,
      destinationLatitude: hasDestination ? destination.latitude : null,
      destinationLongitude: hasDestination ? destination.longitude : null,
      equipmentType: str("equipmentType") as TEquipmentType,
      capacityLbs: Math.round(weightToPounds(capacity, units) * 10) / 10,
      plate: str("plate") || null,
    });
  };

  const placeField = (
    side: "origin" | "destination",
    value: TPlaceValue,
    setValue: (v: TPlaceValue) => void,
    label: ReactNode,
    hint: ReactNode,
  ) => {
    const id = `truck-${side}`;
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
            setValue({ name, latitude: null, longitude: null });
            setErrors((er) => ({ ...er, [side]: undefined }));
          }}
          onPick={(p) => {
            setValue({ name: placeName(p), latitude: p.latitude, longitude: p.longitude });
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

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate data-testid="truck-form">
      {placeField(
        "origin",
        origin,
        setOrigin,
        <Trans comment="Truck form: the place where the driver's truck is free to pick up a load">Available at</Trans>,
        <Trans>Type a city and pick it from the list.</Trans>,
      )}
      <div className="grid grid-cols-2 gap-3">
        <TextField
          id="truck-from"
          name="availableFrom"
          type="date"
          min={today()}
          label={<Trans comment="Truck form: the first day the truck is free">Free from</Trans>}
          error={errors.availableFrom}
        />
        <TextField
          id="truck-to"
          name="availableTo"
          type="date"
          min={today()}
          label={<Trans comment="Truck form: the last day the truck is free">Free until</Trans>}
          error={errors.availableTo}
        />
      </div>
      {placeField(
        "destination",
        destination,
        setDestination,
        <Trans comment="Label of the optional destination of a lane or a search">Destination (optional)</Trans>,
        <Trans comment="Truck form hint under the destination">Leave empty to go anywhere.</Trans>,
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="truck-equipment">
            <Trans>Equipment</Trans>
          </Label>
          <NativeSelect
            id="truck-equipment"
            name="equipmentType"
            defaultValue=""
            aria-invalid={!!errors.equipmentType}
            aria-describedby={errors.equipmentType ? "truck-equipment-error" : undefined}
          >
            <option value="" disabled>
              {t`Choose equipment`}
            </option>
            {EQUIPMENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {equipmentLabel(type)}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="truck-equipment-error">{errors.equipmentType}</FieldError>
        </div>
        <TextField
          id="truck-capacity"
          name="capacity"
          type="number"
          inputMode="decimal"
          min="0.1"
          step="any"
          label={t({
            message: `Capacity (${weightUnit})`,
            comment: "Truck form: how much weight the truck can carry; {weightUnit} is kg or lb",
          })}
          error={errors.capacity}
        />
      </div>
      <TextField
        id="truck-plate"
        name="plate"
        maxLength={20}
        autoComplete="off"
        label={<Trans comment="Truck form: the truck's licence plate number, optional">Plate number (optional)</Trans>}
        error={errors.plate}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            <Trans>Cancel</Trans>
          </Button>
        </DialogClose>
        <Button type="submit" disabled={create.isPending} data-testid="truck-submit">
          {create.isPending ? (
            <Trans comment="Post Load button while the load is being published">Posting...</Trans>
          ) : (
            <Trans>Post a truck</Trans>
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}
