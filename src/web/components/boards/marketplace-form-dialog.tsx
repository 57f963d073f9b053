import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  CREDENTIAL_FIELDS,
  DEFAULT_RATE_LIMIT_PER_HOUR,
  DEFAULT_SYNC_INTERVAL_MINUTES,
  MARKETPLACE_PROVIDERS,
  REQUIRED_CREDENTIAL_FIELDS,
  type TMarketplaceProvider,
} from "../../../shared/schemas/boards";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
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
import { CredentialFields } from "./credential-fields";
import {
  SUGGESTED_BASE_URL,
  serverMessage,
  type TMarketplace,
  type TUpdateInput,
  useCredentialLabel,
  useProviderLabel,
  useRefreshMarketplaces,
} from "./shared";
import { SyncSettingsFields } from "./sync-settings-fields";

export type TMarketplaceForm = {
  provider: TMarketplaceProvider | "";
  name: string;
  apiBaseUrl: string;
  isActive: boolean;
  syncEnabled: boolean;
  syncIntervalMinutes: string;
  rateLimitPerHour: string;
  /** Credentials typed in this form; an empty field keeps what is saved. */
  config: Record<string, string>;
};
export type TFormErrors = Record<string, string | undefined>;

const initialForm = (editing: TMarketplace | null): TMarketplaceForm =>
  editing
    ? {
        provider: editing.provider,
        name: editing.name,
        apiBaseUrl: editing.apiBaseUrl,
        isActive: editing.isActive,
        syncEnabled: editing.syncEnabled,
        syncIntervalMinutes: String(editing.syncIntervalMinutes),
        rateLimitPerHour: String(editing.rateLimitPerHour),
        config: {},
      }
    : {
        provider: "",
        name: "",
        apiBaseUrl: "",
        isActive: true,
        syncEnabled: false,
        syncIntervalMinutes: String(DEFAULT_SYNC_INTERVAL_MINUTES),
        rateLimitPerHour: String(DEFAULT_RATE_LIMIT_PER_HOUR),
        config: {},
      };

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
};

/** Add Marketplace (no `editing`) or Edit (provider fixed, credentials left blank to keep). */
export function MarketplaceFormDialog({
  open,
  onOpenChange,
  editing,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  editing: TMarketplace | null;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t`Close`} width="lg" data-testid="marketplace-dialog">
        <DialogHeader>
          <DialogTitle>
            {editing ? (
              <Trans comment="Dialog title: change a connected load board's settings">Edit Marketplace</Trans>
            ) : (
              <Trans>Add Marketplace</Trans>
            )}
          </DialogTitle>
          <DialogDescription>
            {editing ? (
              <Trans>Saved credentials are never shown: leave a field blank to keep it.</Trans>
            ) : (
              <Trans>Connect a load board with the credentials it gave you.</Trans>
            )}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from a fresh form. */}
        <MarketplaceForm editing={editing} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function MarketplaceForm({ editing, onDone }: { editing: TMarketplace | null; onDone: () => void }) {
  const { t } = useLingui();
  const providerLabel = useProviderLabel();
  const credentialLabel = useCredentialLabel();
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();
  const [form, setForm] = useState<TMarketplaceForm>(() => initialForm(editing));
  const [errors, setErrors] = useState<TFormErrors>({});
  const set = (p: Partial<TMarketplaceForm>) => setForm((f) => ({ ...f, ...p }));

  const onServerError = (err: unknown, fallback: string) => {
    if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
    const info = errorInfo(err);
    if (info.issues.length) setErrors(Object.fromEntries(info.issues.map((i) => [i.path, i.message])));
    toast({ title: t`Error`, description: serverMessage(err) ?? fallback, variant: "destructive" });
  };
  const create = useMutation(
    trpc.boards.create.mutationOptions({
      onSuccess: async (c) => {
        toast({
          title: t({ message: "Marketplace Added", comment: "Notice title after a load board was connected" }),
          description: c.name,
          variant: "success",
        });
        onDone();
        await refresh();
      },
      onError: (err) => onServerError(err, t`Failed to create marketplace configuration`),
    }),
  );
  const update = useMutation(
    trpc.boards.update.mutationOptions({
      onSuccess: async (c) => {
        toast({ title: t`Marketplace Updated`, description: c.name, variant: "success" });
        onDone();
        await refresh();
      },
      onError: (err) => onServerError(err, t`Failed to update marketplace configuration`),
    }),
  );
  const pending = create.isPending || update.isPending;
  const provider = form.provider;
  const fields: readonly string[] = provider ? CREDENTIAL_FIELDS[provider] : [];
  const suggestedUrl = provider ? SUGGESTED_BASE_URL[provider] : "";
  // Demo mode: the local emulators stand in for the boards; they take "sandbox" in every credential field.
  const sandbox = useQuery(trpc.boards.sandbox.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  const sandboxUrl = provider && !editing ? sandbox.data?.[provider] : undefined;
  const fillSandbox = () => {
    if (!provider || !sandboxUrl) return;
    set({ apiBaseUrl: sandboxUrl, config: Object.fromEntries(fields.map((f) => [f, "sandbox"])) });
  };

  const pickProvider = (p: TMarketplaceProvider | "") =>
    setForm((f) => {
      // The suggested address follows the provider, unless one was typed.
      const suggested = f.provider ? SUGGESTED_BASE_URL[f.provider] : "";
      const typed = f.apiBaseUrl.trim() !== "" && f.apiBaseUrl.trim() !== suggested;
      return {
        ...f,
        provider: p,
        apiBaseUrl: typed ? f.apiBaseUrl : p ? SUGGESTED_BASE_URL[p] : "",
        syncEnabled: p === "dat" ? false : f.syncEnabled,
        config: {},
      };
    });

  const validate = (): TFormErrors => {
    const next: TFormErrors = {};
    if (!provider) next.provider = t`Provider is required`;
    if (!form.name.trim()) next.name = t`Name is required`;
    const url = form.apiBaseUrl.trim();
    if (!url) next.apiBaseUrl = t`API base URL is required`;
    else if (!isHttpUrl(url)) next.apiBaseUrl = t`API base URL must be an http or https address`;
    if (provider)
      for (const f of REQUIRED_CREDENTIAL_FIELDS[provider]) {
        if (form.config[f]?.trim() || editing?.config[f]) continue;
        const label = credentialLabel(provider, f);
        next[`config.${f}`] = t`${label} is required`;
      }
    return next;
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next = validate();
    setErrors(next);
    if (Object.values(next).some(Boolean) || !provider) {
      const el = e.currentTarget;
      requestAnimationFrame(() => el.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    const config = Object.fromEntries(
      Object.entries(form.config)
        .map(([k, v]) => [k, v.trim()] as const)
        .filter(([k, v]) => v !== "" && fields.includes(k)),
    );
    const name = form.name.trim();
    const apiBaseUrl = form.apiBaseUrl.trim();
    const syncEnabled = provider !== "dat" && form.syncEnabled;
    const interval = form.syncIntervalMinutes.trim();
    const rateLimit = form.rateLimitPerHour.trim();
    if (!editing) {
      create.mutate({
        provider,
        name,
        apiBaseUrl,
        isActive: form.isActive,
        syncEnabled,
        syncIntervalMinutes: interval,
        rateLimitPerHour: rateLimit,
        config,
      });
      return;
    }
    // Changed fields only: what is left out stays as it is.
    const input: TUpdateInput = { id: editing.id };
    if (name !== editing.name) input.name = name;
    if (apiBaseUrl.replace(/\/+$/, "") !== editing.apiBaseUrl) input.apiBaseUrl = apiBaseUrl;
    if (form.isActive !== editing.isActive) input.isActive = form.isActive;
    if (syncEnabled !== editing.syncEnabled) input.syncEnabled = syncEnabled;
    if (interval !== String(editing.syncIntervalMinutes)) input.syncIntervalMinutes = interval;
    if (rateLimit !== String(editing.rateLimitPerHour)) input.rateLimitPerHour = rateLimit;
    if (Object.keys(config).length) input.config = config;
    update.mutate(input);
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate data-testid="marketplace-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="mp-provider">
            <Trans comment="Label of the load board choice (DAT, Truckstop, 123Loadboard, JSON feed)">Provider</Trans>
          </Label>
          <NativeSelect
            id="mp-provider"
            className="aria-invalid:border-destructive disabled:opacity-70"
            value={provider}
            disabled={!!editing}
            aria-invalid={!!errors.provider}
            aria-describedby={errors.provider ? "mp-provider-error" : undefined}
            onChange={(e) => pickProvider(e.target.value as TMarketplaceProvider | "")}
          >
            <option value="" disabled>
              {t`Choose a board`}
            </option>
            {MARKETPLACE_PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {providerLabel(p)}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="mp-provider-error">{errors.provider}</FieldError>
        </div>
        <TextField
          id="mp-name"
          label={<Trans>Name</Trans>}
          maxLength={80}
          placeholder={t`e.g. My Truckstop account`}
          value={form.name}
          error={errors.name}
          onChange={(e) => set({ name: e.target.value })}
        />
        <div className="grid gap-1 sm:col-span-2">
          <TextField
            id="mp-base-url"
            label={<Trans>API base URL</Trans>}
            type="url"
            inputMode="url"
            autoComplete="off"
            maxLength={300}
            placeholder="https://"
            value={form.apiBaseUrl}
            error={errors.apiBaseUrl}
            onChange={(e) => set({ apiBaseUrl: e.target.value })}
          />
          {suggestedUrl && (
            <p className="text-xs text-muted-foreground">
              <Trans comment="Hint under a board's API address: the real (non-test) address of this board">
                Production address: {suggestedUrl}
              </Trans>
            </p>
          )}
          {sandboxUrl && (
            <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              <Trans>This demo runs a Sandbox of this board.</Trans>
              <Button type="button" size="sm" variant="outline" onClick={fillSandbox} data-testid="use-sandbox">
                <Trans>Use the Sandbox</Trans>
              </Button>
            </div>
          )}
        </div>
      </div>
      {provider && (
        <CredentialFields
          provider={provider}
          values={form.config}
          saved={editing?.config ?? null}
          errors={errors}
          onChange={(config) => set({ config })}
        />
      )}
      <SyncSettingsFields form={form} errors={errors} onChange={set} />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            <Trans>Cancel</Trans>
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending} data-testid="marketplace-submit">
          {pending ? <Trans>Saving...</Trans> : editing ? <Trans>Save Changes</Trans> : <Trans>Add Marketplace</Trans>}
        </Button>
      </DialogFooter>
    </form>
  );
}
