import { Trans, useLingui } from "@lingui/react/macro";
import {
  credentialFieldsFor,
  SHOPIFY_APP_KINDS,
  SHOPIFY_SCOPES,
  type TEcommercePlatform,
  type TShopifyAppKind,
} from "../../../shared/schemas/stores";
import { Badge } from "../ui/badge";
import { FieldError, Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { SECRET_FIELDS, useCredentialLabel, useRegionLabels } from "./shared";

const SetBadge = ({ field }: { field: string }) => (
  <Badge variant="success" data-testid={`credential-set-${field}`}>
    <Trans comment="Badge beside a credential field: a value is stored (kept hidden)">set</Trans>
  </Badge>
);

/** Shopify's two kinds of app, as the form offers them. */
function ShopifyAppChoice({ value, onChange }: { value: TShopifyAppKind; onChange: (v: TShopifyAppKind) => void }) {
  const { t } = useLingui();
  const labels: Record<TShopifyAppKind, string> = {
    devDashboard: t`Dev Dashboard app (client ID and secret)`,
    legacyCustom: t`Legacy custom app (Admin API access token)`,
  };
  return (
    <div className="grid gap-2 sm:col-span-2">
      <Label htmlFor="ec-shopify-app">
        <Trans>Kind of app</Trans>
      </Label>
      <NativeSelect
        id="ec-shopify-app"
        value={value}
        onChange={(e) => onChange(e.target.value as TShopifyAppKind)}
        data-testid="shopify-app-kind"
      >
        {SHOPIFY_APP_KINDS.map((k) => (
          <option key={k} value={k}>
            {labels[k]}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** What the merchant does at the store to get these credentials. */
function CredentialHelp({ platform, shopifyApp }: { platform: TEcommercePlatform; shopifyApp: TShopifyAppKind }) {
  const scopes = SHOPIFY_SCOPES.join(", ");
  return (
    <p className="text-xs text-muted-foreground sm:col-span-2" data-testid="credential-help">
      {platform === "shopify" && shopifyApp === "devDashboard" && (
        <Trans>
          In Shopify's Dev Dashboard, create an app with the access scopes {scopes} (and read_all_orders for orders
          older than 60 days), install it on your store and copy its client ID and secret from its settings. Its
          webhooks are signed with the client secret.
        </Trans>
      )}
      {platform === "shopify" && shopifyApp === "legacyCustom" && (
        <Trans>
          For a custom app made in your Shopify admin before 2026: its Admin API access token, with the scopes {scopes}.
          Its webhooks are signed with its API secret key; webhooks made under Settings → Notifications are signed with
          the key shown there.
        </Trans>
      )}
      {platform === "amazon" && (
        <Trans>
          The Login with Amazon app and the seller's refresh token from Seller Central authorize the Selling Partner
          API.
        </Trans>
      )}
      {platform === "alibaba" && (
        <Trans>
          Your Alibaba.com Open Platform app's key and secret, and the access and refresh tokens the seller's
          authorization gave; the access token is renewed with the refresh token.
        </Trans>
      )}
    </p>
  );
}

/** The store's credential fields; saved values are never shown, only that they are set. */
export function StoreCredentialFields({
  platform,
  values,
  saved,
  errors,
  shopifyApp,
  onShopifyAppChange,
  onChange,
}: {
  platform: TEcommercePlatform;
  values: Record<string, string>;
  /** On edit: which fields are set on the server. */
  saved: Record<string, boolean> | null;
  errors: Record<string, string | undefined>;
  /** Shopify: the kind of app whose fields are shown. */
  shopifyApp: TShopifyAppKind;
  onShopifyAppChange: (app: TShopifyAppKind) => void;
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
      {platform === "shopify" && <ShopifyAppChoice value={shopifyApp} onChange={onShopifyAppChange} />}
      {credentialFieldsFor(platform, shopifyApp).map((f) => {
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
      <CredentialHelp platform={platform} shopifyApp={shopifyApp} />
    </fieldset>
  );
}
