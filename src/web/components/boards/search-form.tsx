import { Trans, useLingui } from "@lingui/react/macro";
import { LocateFixed, Search } from "lucide-react";
import { type FormEvent, useState } from "react";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS, type TEquipmentType } from "../../../shared/constants";
import { DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_RADIUS } from "../../../shared/schemas/boards";
import { useMe } from "../../lib/auth";
import { currentPosition } from "../../lib/geolocation";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { useEquipmentLabel } from "../loads/equipment-label";
import { PlaceName } from "../loads/place-name";
import { Button } from "../ui/button";
import { FieldError, Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { type TMarketplace, type TSearchInput, useProviderLabel } from "./shared";

type TForm = {
  id: string;
  originLatitude: string;
  originLongitude: string;
  destinationLatitude: string;
  destinationLongitude: string;
  radiusMiles: string;
  equipmentType: string;
  limit: string;
};
export type TSearchErrors = Record<string, string | undefined>;

const EMPTY: TForm = {
  id: "",
  originLatitude: "",
  originLongitude: "",
  destinationLatitude: "",
  destinationLongitude: "",
  radiusMiles: String(DEFAULT_SEARCH_RADIUS),
  equipmentType: "",
  limit: String(DEFAULT_SEARCH_LIMIT),
};

const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

/** Which board, around where, how far, which equipment and how many: checked here, then searched live. */
export function SearchForm({
  configs,
  pending,
  serverErrors,
  onSearch,
}: {
  configs: TMarketplace[];
  pending: boolean;
  serverErrors: TSearchErrors;
  onSearch: (input: TSearchInput) => void;
}) {
  const { t } = useLingui();
  const { formatDistance } = usePreferences();
  const equipmentLabel = useEquipmentLabel();
  const providerLabel = useProviderLabel();
  const saved = useMe().data?.location ?? null;
  const [form, setForm] = useState<TForm>(EMPTY);
  const [errors, setErrors] = useState<TSearchErrors>({});
  const [locating, setLocating] = useState(false);
  const set = (p: Partial<TForm>) => setForm((f) => ({ ...f, ...p }));
  const shown = { ...serverErrors, ...errors };

  const locate = async () => {
    setLocating(true);
    try {
      const p = await currentPosition();
      set({ originLatitude: p.latitude.toFixed(5), originLongitude: p.longitude.toFixed(5) });
      setErrors((e) => ({ ...e, originLatitude: undefined, originLongitude: undefined }));
    } catch {
      toast({
        title: t`Location unavailable`,
        description: t`Allow location access for MyTess in your browser, then try again.`,
        variant: "destructive",
      });
    } finally {
      setLocating(false);
    }
  };

  /** A pair of coordinates: both or neither, in range. */
  const checkPair = (next: TSearchErrors, prefix: "origin" | "destination") => {
    const latText = form[`${prefix}Latitude`].trim();
    const lngText = form[`${prefix}Longitude`].trim();
    if (!latText && !lngText) return undefined;
    const lat = num(latText);
    const lng = num(lngText);
    const both = t`Enter both latitude and longitude`;
    if (!latText) next[`${prefix}Latitude`] = both;
    else if (!(lat >= -90 && lat <= 90)) next[`${prefix}Latitude`] = t`Between -90 and 90`;
    if (!lngText) next[`${prefix}Longitude`] = both;
    else if (!(lng >= -180 && lng <= 180)) next[`${prefix}Longitude`] = t`Between -180 and 180`;
    return { lat, lng };
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: TSearchErrors = {};
    if (!form.id) next.id = t`Choose a marketplace`;
    const origin = checkPair(next, "origin");
    const destination = checkPair(next, "destination");
    const limit = num(form.limit);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100))
      next.limit = t({
        message: "Between 1 and 100",
        comment: "Form error under the results count: the allowed range",
      });
    setErrors(next);
    if (Object.values(next).some(Boolean)) {
      const el = e.currentTarget;
      requestAnimationFrame(() => el.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    onSearch({
      id: Number(form.id),
      ...(origin && { originLatitude: origin.lat, originLongitude: origin.lng }),
      ...(destination && { destinationLatitude: destination.lat, destinationLongitude: destination.lng }),
      radiusMiles: Number(form.radiusMiles),
      ...(form.equipmentType && { equipmentType: form.equipmentType as TEquipmentType }),
      limit,
    });
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate data-testid="marketplace-search-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor="search-marketplace">
            <Trans comment="Marketplace search label: which connected load board to search">Marketplace</Trans>
          </Label>
          <NativeSelect
            id="search-marketplace"
            className="aria-invalid:border-destructive"
            value={form.id}
            aria-invalid={!!shown.id}
            aria-describedby={shown.id ? "search-marketplace-error" : undefined}
            onChange={(e) => {
              set({ id: e.target.value });
              setErrors((er) => ({ ...er, id: undefined }));
            }}
          >
            <option value="" disabled>
              {t`Select a marketplace`}
            </option>
            {configs.map((c) => (
              <option key={c.id} value={c.id} disabled={!c.isActive}>
                {c.isActive
                  ? `${c.name} (${providerLabel(c.provider, true)})`
                  : t({
                      message: `${c.name} (inactive)`,
                      comment: "Board choice in the marketplace search: the board {0} is switched off",
                    })}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="search-marketplace-error">{shown.id}</FieldError>
          {configs.length === 0 && (
            <p className="text-xs text-muted-foreground">
              <Trans>No marketplace yet: add one under Configurations.</Trans>
            </p>
          )}
        </div>

        <fieldset className="grid gap-3 rounded-md border p-3 sm:col-span-2 sm:grid-cols-2">
          <legend className="px-1 text-sm font-semibold">
            <Trans>Origin</Trans>
          </legend>
          <TextField
            id="search-origin-lat"
            label={<Trans>Latitude</Trans>}
            type="number"
            step="any"
            inputMode="decimal"
            value={form.originLatitude}
            error={shown.originLatitude}
            onChange={(e) => set({ originLatitude: e.target.value })}
          />
          <TextField
            id="search-origin-lng"
            label={<Trans>Longitude</Trans>}
            type="number"
            step="any"
            inputMode="decimal"
            value={form.originLongitude}
            error={shown.originLongitude}
            onChange={(e) => set({ originLongitude: e.target.value })}
          />
          <div className="flex flex-col gap-2 sm:col-span-2 sm:flex-row sm:items-center">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={locating}
              onClick={() => void locate()}
              data-testid="search-use-location"
            >
              <LocateFixed aria-hidden />
              {locating ? <Trans>Locating...</Trans> : <Trans>Use my location</Trans>}
            </Button>
            <p className="text-xs text-muted-foreground" data-testid="search-origin-hint">
              {saved ? (
                <Trans>
                  Left empty, the search starts from your saved location:{" "}
                  <PlaceName latitude={saved.latitude} longitude={saved.longitude} />
                </Trans>
              ) : (
                <Trans>No saved location: use your location or enter coordinates.</Trans>
              )}
            </p>
          </div>
          <details
            className="sm:col-span-2"
            open={Boolean(shown.destinationLatitude || shown.destinationLongitude) || undefined}
          >
            <summary className="cursor-pointer text-sm text-muted-foreground">
              <Trans>Destination (optional)</Trans>
            </summary>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              <TextField
                id="search-destination-lat"
                label={
                  <Trans comment="Marketplace search field: latitude of the destination">Destination latitude</Trans>
                }
                type="number"
                step="any"
                inputMode="decimal"
                value={form.destinationLatitude}
                error={shown.destinationLatitude}
                onChange={(e) => set({ destinationLatitude: e.target.value })}
              />
              <TextField
                id="search-destination-lng"
                label={
                  <Trans comment="Marketplace search field: longitude of the destination">Destination longitude</Trans>
                }
                type="number"
                step="any"
                inputMode="decimal"
                value={form.destinationLongitude}
                error={shown.destinationLongitude}
                onChange={(e) => set({ destinationLongitude: e.target.value })}
              />
            </div>
          </details>
        </fieldset>

        <div className="grid gap-3 sm:col-span-2 sm:grid-cols-3">
          <div className="grid gap-2">
            <Label htmlFor="search-radius">
              <Trans>Radius</Trans>
            </Label>
            <NativeSelect
              id="search-radius"
              value={form.radiusMiles}
              onChange={(e) => set({ radiusMiles: e.target.value })}
            >
              {RADIUS_OPTIONS.map((r) => (
                <option key={r} value={r}>
                  {formatDistance(r, 0)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="search-equipment">
              <Trans>Equipment</Trans>
            </Label>
            <NativeSelect
              id="search-equipment"
              value={form.equipmentType}
              onChange={(e) => set({ equipmentType: e.target.value })}
            >
              <option value="">{t`Any equipment`}</option>
              {EQUIPMENT_TYPES.map((eq) => (
                <option key={eq} value={eq}>
                  {equipmentLabel(eq)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <TextField
            id="search-limit"
            label={<Trans>Results (at most)</Trans>}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            value={form.limit}
            error={shown.limit}
            onChange={(e) => set({ limit: e.target.value })}
          />
        </div>
      </div>
      <div>
        <Button type="submit" disabled={pending} data-testid="marketplace-search" className="w-full sm:w-auto">
          <Search aria-hidden />
          {pending ? (
            <Trans comment="Search button while searching">Searching...</Trans>
          ) : (
            <Trans comment="Button that runs a search of a load board, and label of the shipper's search box">
              Search
            </Trans>
          )}
        </Button>
      </div>
    </form>
  );
}
