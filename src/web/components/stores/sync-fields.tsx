import { Trans } from "@lingui/react/macro";
import { DEFAULT_STORE_SYNC_MINUTES, IMPORTABLE_STATUSES } from "../../../shared/schemas/stores";
import { FieldError, Label, TextField } from "../ui/input";
import { Switch } from "../ui/switch";
import type { TFormErrors, TIntegrationForm, TSetForm } from "./integration-form";
import { useOrderStatusLabel } from "./shared";

/** Active, the sync interval and which store statuses are imported. */
export function SyncFields({
  form,
  errors,
  onChange,
}: {
  form: TIntegrationForm;
  errors: TFormErrors;
  onChange: TSetForm;
}) {
  const statusLabel = useOrderStatusLabel();
  const defaultInterval = DEFAULT_STORE_SYNC_MINUTES;
  const statusesError = errors["settings.importStatuses"];
  return (
    <div className="grid gap-3 rounded-md border p-3">
      <div className="flex items-center justify-between gap-3">
        <div>
          <Label htmlFor="ec-active">
            <Trans>Active</Trans>
          </Label>
          <p className="text-xs text-muted-foreground">
            <Trans>Inactive integrations neither sync nor take webhooks.</Trans>
          </p>
        </div>
        <Switch id="ec-active" checked={form.isActive} onCheckedChange={(on) => onChange({ isActive: on })} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1">
          <TextField
            id="ec-interval"
            label={<Trans>Sync interval (minutes)</Trans>}
            type="number"
            inputMode="numeric"
            min={5}
            max={1440}
            step={1}
            value={form.syncIntervalMinutes}
            error={errors["settings.syncIntervalMinutes"]}
            onChange={(e) => onChange({ syncIntervalMinutes: e.target.value })}
          />
          <p className="text-xs text-muted-foreground">
            <Trans comment="Hint under the sync interval field (minutes): the allowed range, and the value used when left empty">
              5 to 1440; otherwise {defaultInterval}.
            </Trans>
          </p>
        </div>
        <fieldset
          className="grid content-start gap-2"
          aria-invalid={!!statusesError}
          aria-describedby={statusesError ? "ec-statuses-error" : undefined}
        >
          <legend className="mb-2 text-sm font-medium">
            <Trans>Import orders that are</Trans>
          </legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {IMPORTABLE_STATUSES.map((s) => (
              <label key={s} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-brand"
                  checked={form.importStatuses.includes(s)}
                  data-testid={`import-status-${s}`}
                  onChange={(e) =>
                    onChange({
                      importStatuses: e.target.checked
                        ? [...form.importStatuses, s]
                        : form.importStatuses.filter((x) => x !== s),
                    })
                  }
                />
                {statusLabel(s)}
              </label>
            ))}
          </div>
          <FieldError id="ec-statuses-error">{statusesError}</FieldError>
        </fieldset>
      </div>
    </div>
  );
}
