import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LocateFixed } from "lucide-react";
import { useState } from "react";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS, type TEquipmentType } from "../../../shared/constants";
import { currentPosition } from "../../lib/geolocation";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Label } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { Switch } from "../ui/switch";
import { useEquipmentLabel } from "./equipment-label";
import { PlaceName } from "./place-name";

type TForm = { enabled: boolean; radiusMiles: number; equipmentTypes: TEquipmentType[] };

/** A driver's alerts for new loads near their last location: on/off, radius, equipment, and where "near" is. */
export function LoadAlertsCard() {
  const { t } = useLingui();
  const { formatDate, formatDistance } = usePreferences();
  const equipmentLabel = useEquipmentLabel();
  const queryClient = useQueryClient();
  const saved = useQuery(trpc.loadAlerts.get.queryOptions());
  const [edit, setEdit] = useState<TForm | null>(null);
  const [locating, setLocating] = useState(false);
  const form: TForm | null =
    edit ??
    (saved.data
      ? {
          enabled: saved.data.enabled,
          radiusMiles: saved.data.radiusMiles,
          equipmentTypes: saved.data.equipmentTypes as TEquipmentType[],
        }
      : null);
  const save = useMutation(
    trpc.loadAlerts.save.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.loadAlerts.get.queryKey(), data);
        setEdit(null);
        toast({
          title: t({ message: "Settings Saved", comment: "Notice title after settings were saved" }),
          description: data.location
            ? t`Load alerts updated.`
            : t`Load alerts updated. Share your location so MyTess knows where "near" is.`,
          variant: "success",
        });
      },
      onError: (err) => {
        if (handleSubscriptionRequired(err)) return;
        toast({
          title: t({ message: "Error", comment: "Title of an error notice (toast)" }),
          description: errorInfo(err).message,
          variant: "destructive",
        });
      },
    }),
  );
  const locate = useMutation(
    trpc.drivers.updateLocation.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.loadAlerts.get.queryKey() }),
      onError: (err) => toast({ title: t`Error`, description: errorInfo(err).message, variant: "destructive" }),
    }),
  );
  const shareLocation = async () => {
    setLocating(true);
    try {
      locate.mutate(await currentPosition());
    } catch {
      toast({
        title: t({ message: "Location unavailable", comment: "Notice title: the phone could not give its position" }),
        description: t`Allow location access for MyTess in your browser, then try again.`,
        variant: "destructive",
      });
    } finally {
      setLocating(false);
    }
  };

  return (
    <Card data-testid="load-alerts-card">
      <CardHeader>
        <CardTitle>
          <Trans comment="Card title: notifications about new loads posted near the driver">Load alerts</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Be told when a load is posted near you, on every channel you turned on.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {saved.isPending || !form ? (
          saved.isError ? (
            <LoadError
              title={<Trans>Your load alerts could not be loaded.</Trans>}
              error={saved.error}
              onRetry={saved.refetch}
            />
          ) : (
            <p className="text-sm text-muted-foreground" role="status">
              <Trans comment="Shown while a card's data is fetched from the server (not loading cargo)">Loading…</Trans>
            </p>
          )
        ) : (
          <div className="grid gap-4">
            <div className="flex items-center justify-between gap-3">
              <Label htmlFor="alerts-enabled">
                <Trans>Alert me about new loads near me</Trans>
              </Label>
              <Switch
                id="alerts-enabled"
                checked={form.enabled}
                onCheckedChange={(on) => setEdit({ ...form, enabled: on })}
              />
            </div>
            <div className="grid gap-1 sm:w-64">
              <Label htmlFor="alerts-radius">
                <Trans comment="Load alerts: label of the distance choice (alert for loads within this distance)">
                  Within
                </Trans>
              </Label>
              <select
                id="alerts-radius"
                className="h-9 rounded-md border bg-background px-2 text-sm"
                value={form.radiusMiles}
                onChange={(e) => setEdit({ ...form, radiusMiles: Number(e.target.value) })}
              >
                {RADIUS_OPTIONS.map((r) => (
                  <option key={r} value={r}>
                    {formatDistance(r, 0)}
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">
                <Trans>Equipment (none ticked: any)</Trans>
              </legend>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {EQUIPMENT_TYPES.map((e) => (
                  <label key={e} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4"
                      checked={form.equipmentTypes.includes(e)}
                      onChange={(ev) =>
                        setEdit({
                          ...form,
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
            </fieldset>
            <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="alerts-location">
              {saved.data?.location ? (
                <span className="text-muted-foreground">
                  <Trans>
                    Near your last location:{" "}
                    <PlaceName latitude={saved.data.location.latitude} longitude={saved.data.location.longitude} />
                  </Trans>
                  {saved.data.location.updatedAt &&
                    ` · ${formatDate(saved.data.location.updatedAt, { dateStyle: "medium", timeStyle: "short" })}`}
                </span>
              ) : (
                <span className="text-amber-700">
                  <Trans>No location yet: alerts need to know where you are.</Trans>
                </span>
              )}
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={locating || locate.isPending}
                onClick={() => void shareLocation()}
              >
                <LocateFixed className="size-4" aria-hidden />
                {locating || locate.isPending ? (
                  <Trans comment="Button while the phone's position is being found">Locating...</Trans>
                ) : (
                  <Trans>Share my location</Trans>
                )}
              </Button>
            </div>
            <div>
              <Button
                type="button"
                disabled={save.isPending}
                data-testid="alerts-save"
                onClick={() => save.mutate(form)}
              >
                {save.isPending ? (
                  <Trans comment="Save button while saving">Saving...</Trans>
                ) : (
                  <Trans comment="Button: save the load alert settings">Save alerts</Trans>
                )}
              </Button>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
