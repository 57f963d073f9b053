import { Trans, useLingui } from "@lingui/react/macro";
import { STORE_CREDENTIAL_FIELDS, type TEcommercePlatform } from "../../../shared/schemas/ecommerce";
import { Badge } from "../ui/badge";
import { FieldError, Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { SECRET_FIELDS, useCredentialLabel, useRegionLabels } from "./shared";

const SetBadge = ({ field }: { field: string }) => (
  <Badge variant="success" data-testid={`credential-set-${field}`}>
    <Trans comment="Badge beside a credential field: a value is stored (kept hidden)">set</Trans>
  </Badge>
);

/** The store's credential fields; saved values are never shown, only that they are set. */
export function StoreCredentialFields({
  platform,
  values,
  saved,
  errors,
  onChange,
}: {
  platform: TEcommercePlatform;
  values: Record<string, string>;
  /** On edit: which fields are set on the server. */
  saved: Record<string, boolean> | null;
  errors: Record<string, string | undefined>;
  onChange: (values: Record<string, string>) => void;
}) {
  const { t } = useLingui();
  const credentialLabel = useCredentialLabel();
  const regions = useRegionLabels();
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" data-testid="credential-fields">
      <legend className="px-1 text-sm font-semibold">
        <Trans comment="Store form section and card label: the keys and passwords the store gave to connect to it">
          Credentials
        </Trans>
      </legend>
      {STORE_CREDENTIAL_FIELDS[platform].map((f) => {
        const isSet = Boolean(saved?.[f]);
        const id = `ec-credential-${f}`;
        const error = errors[`credentials.${f}`];
        // The one optional field (Shopify's webhook secret) says so in its label.
        const label = (
          <span className="flex flex-wrap items-center gap-1.5">
            {credentialLabel(platform, f)}
            {isSet && <SetBadge field={f} />}
          </span>
        );
        if (f === "region")
          return (
            <div key={f} className="grid gap-2">
              <Label htmlFor={id}>{label}</Label>
              <NativeSelect
                id={id}
                className="aria-invalid:border-destructive"
                value={values[f] ?? ""}
                aria-invalid={!!error}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => onChange({ ...values, [f]: e.target.value })}
              >
                <option value="" disabled={!isSet}>
                  {isSet ? t`Keep the saved region` : t`Choose a region`}
                </option>
                {Object.entries(regions).map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </NativeSelect>
              <FieldError id={`${id}-error`}>{error}</FieldError>
            </div>
          );
        const secret = SECRET_FIELDS.has(f);
        return (
          <TextField
            key={f}
            id={id}
            label={label}
            type={secret ? "password" : "text"}
            autoComplete={secret ? "new-password" : "off"}
            spellCheck={false}
            maxLength={2000}
            placeholder={isSet ? t`Leave blank to keep` : f === "shopDomain" ? "acme.myshopify.com" : undefined}
            value={values[f] ?? ""}
            error={error}
            onChange={(e) => onChange({ ...values, [f]: e.target.value })}
          />
        );
      })}
      {platform === "shopify" && (
        <p className="text-xs text-muted-foreground sm:col-span-2">
          <Trans>
            Create a custom app in your Shopify admin with the read_orders scope; its client secret signs the webhooks.
          </Trans>
        </p>
      )}
      {platform === "amazon" && (
        <p className="text-xs text-muted-foreground sm:col-span-2">
          <Trans>
            The Login with Amazon app and the seller's refresh token from Seller Central authorize the Selling Partner
            API.
          </Trans>
        </p>
      )}
    </fieldset>
  );
}
