import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { credentialFieldsFor, ECOMMERCE_PLATFORMS, type TEcommercePlatform } from "../../../shared/schemas/stores";
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
import { AdvancedFields } from "./advanced-fields";
import { StoreCredentialFields } from "./credential-fields";
import {
  buildSettings,
  initialForm,
  type TFormErrors,
  type TIntegrationForm,
  typedCredentials,
  useValidateIntegration,
} from "./integration-form";
import { LoadDefaultsFields } from "./load-defaults-fields";
import {
  platformLabel,
  serverMessage,
  type TIntegration,
  type TUpdateIntegrationInput,
  useRefreshEcommerce,
} from "./shared";
import { SyncFields } from "./sync-fields";
import { WarehouseFields } from "./warehouse-fields";

/** Add Integration (no `editing`) or Edit (platform fixed, credentials left blank to keep). */
/** 32 random bytes, hex: a webhook secret nobody else knows. */
const randomSecret = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

export function IntegrationFormDialog({
  open,
  onOpenChange,
  editing,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  editing: TIntegration | null;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        closeLabel={t({
          message: "Close",
          comment: "Screen-reader label of the X button that closes a dialog or notice",
        })}
        width="lg"
        data-testid="integration-dialog"
      >
        <DialogHeader>
          <DialogTitle>
            {editing ? (
              <Trans comment="Dialog title: change a connected store's settings">Edit Integration</Trans>
            ) : (
              <Trans comment="Dialog title and button: connect a new online store">Add Integration</Trans>
            )}
          </DialogTitle>
          <DialogDescription>
            {editing ? (
              <Trans>Saved credentials are never shown: leave a field blank to keep it.</Trans>
            ) : (
              <Trans>Connect a store with the credentials it gave you, and say where its goods ship from.</Trans>
            )}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from a fresh form. */}
        <IntegrationForm editing={editing} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function IntegrationForm({ editing, onDone }: { editing: TIntegration | null; onDone: () => void }) {
  const { t } = useLingui();
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const validate = useValidateIntegration();
  const [form, setForm] = useState<TIntegrationForm>(() => initialForm(editing));
  const [errors, setErrors] = useState<TFormErrors>({});
  const [advanced, setAdvanced] = useState(() => Boolean(editing?.settings.apiBaseUrl));
  const set = (p: Partial<TIntegrationForm>) => setForm((f) => ({ ...f, ...p }));

  const onServerError = (err: unknown, fallback: string) => {
    if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
    const info = errorInfo(err);
    if (info.issues.length) setErrors(Object.fromEntries(info.issues.map((i) => [i.path, i.message])));
    toast({ title: t`Error`, description: serverMessage(err) ?? fallback, variant: "destructive" });
  };
  const create = useMutation(
    trpc.stores.createIntegration.mutationOptions({
      onSuccess: async (i) => {
        toast({
          title: t({ message: "Integration Added", comment: "Notice title after a store was connected" }),
          description: i.name,
          variant: "success",
        });
        onDone();
        await refresh();
      },
      onError: (err) => onServerError(err, t`Failed to create integration`),
    }),
  );
  const update = useMutation(
    trpc.stores.updateIntegration.mutationOptions({
      onSuccess: async (i) => {
        toast({ title: t`Integration Updated`, description: i.name, variant: "success" });
        onDone();
        await refresh();
      },
      onError: (err) => onServerError(err, t`Failed to update integration`),
    }),
  );
  const pending = create.isPending || update.isPending;
  const platform = form.platform;

  // Demo mode: the local emulators stand in for the stores; they take "sandbox" in every credential field (the Sandbox
  // shop has both kinds of Shopify app).
  const sandbox = useQuery(trpc.stores.sandbox.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  const sandboxUrl = platform && !editing ? sandbox.data?.[platform] : undefined;
  const fillSandbox = () => {
    if (!platform || !sandboxUrl) return;
    const fields = credentialFieldsFor(platform, form.shopifyApp);
    set({
      apiBaseUrl: sandboxUrl,
      // The emulator takes "sandbox" for every credential, but a webhook secret anyone can read would let anyone forge
      // this store's order webhooks: it gets a random one (the Sandbox sends no webhooks by itself).
      credentials: Object.fromEntries(
        fields.map((f) => [f, f === "region" ? "na" : f === "webhookSecret" ? randomSecret() : "sandbox"]),
      ),
    });
    setAdvanced(true);
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next = validate(form, editing);
    setErrors(next);
    if (Object.values(next).some(Boolean) || !platform) {
      const el = e.currentTarget;
      requestAnimationFrame(() => el.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    const name = form.name.trim();
    const credentials = typedCredentials(form);
    const settings = buildSettings(form);
    if (!editing) {
      create.mutate({ platform, name, isActive: form.isActive, credentials, settings });
      return;
    }
    // Changed fields only: what is left out stays as it is (settings go whole, when any changed).
    const input: TUpdateIntegrationInput = { id: editing.id };
    if (name !== editing.name) input.name = name;
    if (form.isActive !== editing.isActive) input.isActive = form.isActive;
    if (Object.keys(credentials).length) input.credentials = credentials;
    if (JSON.stringify(settings) !== JSON.stringify(buildSettings(initialForm(editing)))) input.settings = settings;
    update.mutate(input);
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate data-testid="integration-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="ec-platform">
            <Trans comment="Footer column heading (the MyTess service's pages) and label of the e-commerce platform choice (Shopify, Amazon, Alibaba)">
              Platform
            </Trans>
          </Label>
          <NativeSelect
            id="ec-platform"
            className="aria-invalid:border-destructive disabled:opacity-70"
            value={platform}
            disabled={!!editing}
            aria-invalid={!!errors.platform}
            aria-describedby={errors.platform ? "ec-platform-error" : undefined}
            onChange={(e) => set({ platform: e.target.value as TEcommercePlatform | "", credentials: {} })}
          >
            <option value="" disabled>
              {t`Choose a store`}
            </option>
            {ECOMMERCE_PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {platformLabel(p)}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="ec-platform-error">{errors.platform}</FieldError>
        </div>
        <TextField
          id="ec-name"
          label={<Trans comment="Label of the name field of a store or board connection">Name</Trans>}
          maxLength={80}
          placeholder={t`e.g. My Shopify store`}
          value={form.name}
          error={errors.name}
          onChange={(e) => set({ name: e.target.value })}
        />
        {sandboxUrl && (
          <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground sm:col-span-2">
            <Trans>This demo runs a Sandbox of this store.</Trans>
            <Button type="button" size="sm" variant="outline" onClick={fillSandbox} data-testid="use-sandbox">
              <Trans>Use the Sandbox</Trans>
            </Button>
          </div>
        )}
      </div>
      {platform && (
        <StoreCredentialFields
          platform={platform}
          values={form.credentials}
          saved={editing?.credentials ?? null}
          errors={errors}
          shopifyApp={form.shopifyApp}
          onShopifyAppChange={(shopifyApp) => set({ shopifyApp })}
          onChange={(credentials) => set({ credentials })}
        />
      )}
      <WarehouseFields value={form.warehouse} errors={errors} onChange={(warehouse) => set({ warehouse })} />
      <LoadDefaultsFields form={form} errors={errors} onChange={set} />
      <SyncFields form={form} errors={errors} onChange={set} />
      <AdvancedFields form={form} errors={errors} open={advanced} onOpenChange={setAdvanced} onChange={set} />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            <Trans comment="Dialog button: close the dialog without doing anything (not “cancel a load”)">Cancel</Trans>
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending} data-testid="integration-submit">
          {pending ? (
            <Trans>Saving...</Trans>
          ) : editing ? (
            <Trans comment="Button: save changes to a store or lane">Save Changes</Trans>
          ) : (
            <Trans>Add Integration</Trans>
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}
