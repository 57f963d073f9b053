import { Trans } from "@lingui/react/macro";
import { DEFAULT_RATE_LIMIT_PER_HOUR, DEFAULT_SYNC_INTERVAL_MINUTES } from "../../../shared/schemas/boards";
import { Label, TextField } from "../ui/input";
import { Switch } from "../ui/switch";
import type { TFormErrors, TMarketplaceForm } from "./marketplace-form-dialog";

/** Active, sync (never for DAT), the sync interval and the hourly rate limit. */
export function SyncSettingsFields({
  form,
  errors,
  onChange,
}: {
  form: TMarketplaceForm;
  errors: TFormErrors;
  onChange: (p: Partial<TMarketplaceForm>) => void;
}) {
  const dat = form.provider === "dat";
  const defaultInterval = DEFAULT_SYNC_INTERVAL_MINUTES;
  const defaultRateLimit = DEFAULT_RATE_LIMIT_PER_HOUR;
  return (
    <div className="grid gap-3 rounded-md border p-3">
      <div className="flex items-center justify-between gap-3">
        <div>
          <Label htmlFor="mp-active">
            <Trans>Active</Trans>
          </Label>
          <p className="text-xs text-muted-foreground">
            <Trans>Inactive boards are neither searched nor synced.</Trans>
          </p>
        </div>
        <Switch id="mp-active" checked={form.isActive} onCheckedChange={(on) => onChange({ isActive: on })} />
      </div>
      {dat ? (
        <p className="text-sm text-muted-foreground" data-testid="dat-live-only">
          <Trans>DAT is searched live only (DAT's terms)</Trans>
        </p>
      ) : (
        <div className="flex items-center justify-between gap-3">
          <div>
            <Label htmlFor="mp-sync">
              <Trans comment="Label of the switch in a board's form: copy its loads onto the load board on a schedule">
                Sync loads
              </Trans>
            </Label>
            <p className="text-xs text-muted-foreground">
              <Trans>Copies this board's loads onto your load board on a schedule.</Trans>
            </p>
          </div>
          <Switch id="mp-sync" checked={form.syncEnabled} onCheckedChange={(on) => onChange({ syncEnabled: on })} />
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        {!dat && (
          <div className="grid gap-1">
            <TextField
              id="mp-interval"
              label={<Trans>Sync interval (minutes)</Trans>}
              type="number"
              inputMode="numeric"
              min={5}
              max={1440}
              step={1}
              value={form.syncIntervalMinutes}
              error={errors.syncIntervalMinutes}
              onChange={(e) => onChange({ syncIntervalMinutes: e.target.value })}
            />
            <p className="text-xs text-muted-foreground">
              <Trans>5 to 1440; otherwise {defaultInterval}.</Trans>
            </p>
          </div>
        )}
        <div className="grid gap-1">
          <TextField
            id="mp-rate-limit"
            label={<Trans>Rate limit (requests per hour)</Trans>}
            type="number"
            inputMode="numeric"
            min={1}
            max={100000}
            step={1}
            value={form.rateLimitPerHour}
            error={errors.rateLimitPerHour}
            onChange={(e) => onChange({ rateLimitPerHour: e.target.value })}
          />
          <p className="text-xs text-muted-foreground">
            <Trans comment="Hint under the requests-per-hour field of a board: the allowed range, and the value used when left empty">
              1 to 100000; otherwise {defaultRateLimit}.
            </Trans>
          </p>
        </div>
      </div>
    </div>
  );
}
