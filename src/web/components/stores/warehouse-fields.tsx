import { Trans } from "@lingui/react/macro";
import { MapPin } from "lucide-react";
import { PlaceInput } from "../loads/place-input";
import { FieldError, Label, TextField } from "../ui/input";
import type { TFormErrors, TWarehouseForm } from "./integration-form";

/**
 * The warehouse every load starts from: the city from the place search (so it has real coordinates) and the street
 * address. Typing over a picked city forgets its position until another is picked.
 */
export function WarehouseFields({
  value,
  errors,
  onChange,
}: {
  value: TWarehouseForm;
  errors: TFormErrors;
  onChange: (w: TWarehouseForm) => void;
}) {
  const cityError =
    errors["settings.warehouse.city"] ??
    errors["settings.warehouse.latitude"] ??
    errors["settings.warehouse.longitude"] ??
    errors["settings.warehouse.country"];
  const placed = value.latitude !== "" && value.longitude !== "";
  const place = [value.city, value.state, value.country].filter(Boolean).join(", ");
  const lat = placed ? Number(value.latitude).toFixed(4) : "";
  const lng = placed ? Number(value.longitude).toFixed(4) : "";
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" data-testid="warehouse-fields">
      <legend className="px-1 text-sm font-semibold">
        <Trans>Warehouse (pickup of every load)</Trans>
      </legend>
      <div className="grid gap-2">
        <Label htmlFor="ec-warehouse-city">
          <Trans comment="Label of the city field (warehouse, pickup or delivery place)">City</Trans>
        </Label>
        <PlaceInput
          id="ec-warehouse-city"
          value={value.city}
          invalid={!!cityError}
          onChange={(city) => onChange({ ...value, city, state: "", country: "", latitude: "", longitude: "" })}
          onPick={(p) =>
            onChange({
              ...value,
              city: p.city,
              state: p.state ?? "",
              country: p.country,
              latitude: String(p.latitude),
              longitude: String(p.longitude),
            })
          }
        />
        <FieldError id="ec-warehouse-city-error">{cityError}</FieldError>
      </div>
      <TextField
        id="ec-warehouse-address"
        label={<Trans comment="Label of the street address field (warehouse, pickup or delivery place)">Address</Trans>}
        maxLength={200}
        value={value.address}
        error={errors["settings.warehouse.address"]}
        onChange={(e) => onChange({ ...value, address: e.target.value })}
      />
      <p
        className="flex items-start gap-1.5 text-xs text-muted-foreground sm:col-span-2"
        data-testid="warehouse-position"
        data-placed={placed}
      >
        <MapPin className="mt-px size-3.5 shrink-0" aria-hidden />
        {placed ? (
          <span>
            <Trans comment="Warehouse field: the chosen place with its latitude and longitude">
              {place} · {lat}, {lng}
            </Trans>
          </span>
        ) : (
          <Trans>Start typing the city and pick it from the suggestions to place the warehouse.</Trans>
        )}
      </p>
    </fieldset>
  );
}
