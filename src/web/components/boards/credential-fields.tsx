import { Trans, useLingui } from "@lingui/react/macro";
import {
  CREDENTIAL_FIELDS,
  REQUIRED_CREDENTIAL_FIELDS,
  type TMarketplaceProvider,
} from "../../../shared/schemas/boards";
import { Badge } from "../ui/badge";
import { TextField } from "../ui/input";
import { EMAIL_FIELDS, SECRET_FIELDS, useCredentialLabel } from "./shared";

/** The provider's credential fields; saved values are never shown, only that they are set. */
export function CredentialFields({
  provider,
  values,
  saved,
  errors,
  onChange,
}: {
  provider: TMarketplaceProvider;
  values: Record<string, string>;
  /** On edit: which fields are set on the server. */
  saved: Record<string, boolean> | null;
  errors: Record<string, string | undefined>;
  onChange: (values: Record<string, string>) => void;
}) {
  const { t } = useLingui();
  const credentialLabel = useCredentialLabel();
  const required: readonly string[] = REQUIRED_CREDENTIAL_FIELDS[provider];
  const emails: readonly string[] = EMAIL_FIELDS[provider] ?? [];
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" data-testid="credential-fields">
      <legend className="px-1 text-sm font-semibold">
        <Trans>Credentials</Trans>
      </legend>
      {CREDENTIAL_FIELDS[provider].map((f) => {
        const isSet = Boolean(saved?.[f]);
        const secret = SECRET_FIELDS.has(f);
        return (
          <TextField
            key={f}
            id={`mp-config-${f}`}
            label={
              <span className="flex flex-wrap items-center gap-1.5">
                {credentialLabel(provider, f)}
                {!required.includes(f) && (
                  <span className="font-normal text-muted-foreground">
                    <Trans comment="After a credential field's label: this field may stay empty">(optional)</Trans>
                  </span>
                )}
                {isSet && (
                  <Badge variant="success" data-testid={`credential-set-${f}`}>
                    <Trans>set</Trans>
                  </Badge>
                )}
              </span>
            }
            type={secret ? "password" : emails.includes(f) ? "email" : "text"}
            autoComplete={secret ? "new-password" : "off"}
            spellCheck={false}
            maxLength={500}
            placeholder={isSet ? t`Leave blank to keep` : undefined}
            value={values[f] ?? ""}
            error={errors[`config.${f}`]}
            onChange={(e) => onChange({ ...values, [f]: e.target.value })}
          />
        );
      })}
      {provider === "dat" && (
        <p className="text-xs text-muted-foreground sm:col-span-2">
          <Trans>
            The service account signs MyTess in to DAT; the DAT user email is the DAT user the searches are made for.
          </Trans>
        </p>
      )}
      {provider === "123loadboard" && (
        <p className="text-xs text-muted-foreground sm:col-span-2" data-testid="lb123-note">
          <Trans>
            Leave these empty to use this server's 123Loadboard app; fill them in only with your own 123Loadboard API
            app. After saving, use Connect 123Loadboard to let MyTess search loads with your 123Loadboard account.
          </Trans>
        </p>
      )}
      {provider === "other" && (
        <p className="text-xs text-muted-foreground sm:col-span-2">
          <Trans>The key is sent with each request to your feed, if it needs one.</Trans>
        </p>
      )}
    </fieldset>
  );
}
