import { Trans } from "@lingui/react/macro";
import { TextField } from "../ui/input";
import type { TFormErrors, TIntegrationForm, TSetForm } from "./integration-form";

/** Folded: the address requests go to, when not the store's own (a sandbox or an emulator). */
export function AdvancedFields({
  form,
  errors,
  open,
  onOpenChange,
  onChange,
}: {
  form: TIntegrationForm;
  errors: TFormErrors;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChange: TSetForm;
}) {
  const error = errors["settings.apiBaseUrl"];
  return (
    <details
      className="rounded-md border p-3"
      open={open || !!error}
      onToggle={(e) => onOpenChange(e.currentTarget.open)}
      data-testid="advanced-fields"
    >
      <summary className="cursor-pointer text-sm font-semibold">
        <Trans comment="Folded section of a store's form with rarely needed settings">Advanced</Trans>
      </summary>
      <div className="mt-3 grid gap-1">
        <TextField
          id="ec-base-url"
          label={<Trans>API base URL (optional)</Trans>}
          type="url"
          inputMode="url"
          autoComplete="off"
          maxLength={300}
          placeholder="https://"
          value={form.apiBaseUrl}
          error={error}
          onChange={(e) => onChange({ apiBaseUrl: e.target.value })}
        />
        <p className="text-xs text-muted-foreground">
          <Trans>Leave blank to use the store's own address for these credentials.</Trans>
        </p>
      </div>
    </details>
  );
}
