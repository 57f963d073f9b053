import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { type FormEvent, type ReactNode, useCallback, useRef, useState } from "react";
import { EQUIPMENT_TYPES, type MONEY_CURRENCY_CODES } from "../../../shared/constants";
import type { TCreateLoadForm } from "../../../shared/schemas/loads";
import { weightIn, weightToPounds } from "../../../shared/units";
import { useMe } from "../../lib/auth";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, isContactRequired, isQueued, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { ContactNeeded } from "../account/contact-needed";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { Button } from "../ui/button";
import { DateTimeField } from "../ui/date-time-field";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { FieldError, Input, Label, TextField } from "../ui/input";
import { NativeSelect, Textarea } from "../ui/textarea";
import { useEquipmentLabel } from "./equipment-label";
import { MoneyCurrencySelect } from "./money-currency-select";
import { PlaceInput } from "./place-input";

type TSide = { address: string; city: string; state: string; country: string; latitude: string; longitude: string };
const EMPTY_SIDE: TSide = { address: "", city: "", state: "", country: "", latitude: "", longitude: "" };
type TErrors = Record<string, string | undefined>;

/** What the form may start from (an e-commerce order's draft, say); null or missing fields start empty. */
export type TPostLoadInitial = { [K in keyof TCreateLoadForm]?: TCreateLoadForm[K] | null };

const sideOf = (initial: TPostLoadInitial | undefined, prefix: "pickup" | "delivery"): TSide => {
  if (!initial) return EMPTY_SIDE;
  const str = (v: string | number | null | undefined) => (v == null ? "" : String(v));
  return {
    address: str(initial[`${prefix}Address`]),
    city: str(initial[`${prefix}City`]),
    state: str(initial[`${prefix}State`]),
    country: str(initial[`${prefix}Country`]),
    latitude: str(initial[`${prefix}Latitude`]),
    longitude: str(initial[`${prefix}Longitude`]),
  };
};

const pad = (n: number) => String(n).padStart(2, "0");
/** An instant as the browser's own date-time picker takes it (local time). */
const toLocalInput = (iso: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

function PlaceFields({
  prefix,
  value,
  onChange,
  errors,
}: {
  prefix: "pickup" | "delivery";
  value: TSide;
  onChange: (v: TSide) => void;
  errors: TErrors;
}) {
  const set = (k: keyof TSide, v: string) => onChange({ ...value, [k]: v });
  const err = (k: string) => errors[`${prefix}${k}`];
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-2">
      <legend className="px-1 text-sm font-semibold">
        {prefix === "pickup" ? (
          <Trans>Pickup</Trans>
        ) : (
          <Trans comment="Column header and form section: the delivery place (where the load is unloaded)">
            Delivery
          </Trans>
        )}
      </legend>
      <div className="grid gap-1.5">
        <Label htmlFor={`${prefix}-city`}>
          <Trans>City</Trans>
        </Label>
        <PlaceInput
          id={`${prefix}-city`}
          value={value.city}
          invalid={!!err("City")}
          onChange={(v) => set("city", v)}
          onPick={(p) =>
            onChange({
              ...value,
              city: p.city,
              state: p.state ?? "",
              country: p.country,
              latitude: String(p.latitude),
              longitude: String(p.longitude),
            })
          }
        />
        <FieldError>{err("City")}</FieldError>
      </div>
      <TextField
        id={`${prefix}-address`}
        label=<Trans>Address</Trans>
        value={value.address}
        onChange={(e) => set("address", e.target.value)}
        error={err("Address")}
      />
      <div className="grid gap-1.5">
        <Label htmlFor={`${prefix}-state`}>
          <Trans>State or region (optional)</Trans>
        </Label>
        <Input id={`${prefix}-state`} value={value.state} onChange={(e) => set("state", e.target.value)} />
      </div>
      <TextField
        id={`${prefix}-country`}
        label=<Trans comment="Label of the country field of a pickup or delivery place">Country</Trans>
        value={value.country}
        onChange={(e) => set("country", e.target.value)}
        error={err("Country")}
      />
      {/* The place picker fills the coordinates; they are there to correct, not to type, so they stay folded. */}
      <details
        className="sm:col-span-2"
        open={Boolean(err("Latitude") || err("Longitude")) || undefined}
        data-testid={`${prefix}-exact-position`}
      >
        <summary className="cursor-pointer text-sm text-muted-foreground">
          {value.latitude && value.longitude ? (
            <Trans comment="Place field: the exact coordinates entered (latitude, longitude)">
              Exact position: {Number(value.latitude).toFixed(4)}, {Number(value.longitude).toFixed(4)}
            </Trans>
          ) : (
            <Trans comment="Button in the place field: enter exact coordinates instead of a city">Exact position</Trans>
          )}
        </summary>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          <TextField
            id={`${prefix}-lat`}
            label=<Trans comment="Label of a latitude field (coordinates)">Latitude</Trans>
            type="number"
            step="any"
            inputMode="decimal"
            value={value.latitude}
            onChange={(e) => set("latitude", e.target.value)}
            error={err("Latitude")}
          />
          <TextField
            id={`${prefix}-lng`}
            label=<Trans comment="Label of a longitude field (coordinates)">Longitude</Trans>
            type="number"
            step="any"
            inputMode="decimal"
            value={value.longitude}
            onChange={(e) => set("longitude", e.target.value)}
            error={err("Longitude")}
          />
        </div>
      </details>
    </fieldset>
  );
}

/**
 * The Post New Load form, checked here and again on the server. Without props it is the shipper's own
 * "Post New Load" button and dialog. It can also be opened by its caller (`open`, `onOpenChange`, no trigger), start
 * from `initial` values (with `initialErrors` to point at what to complete) and hand the load to `onSubmitLoad` instead
 * of creating it (the caller says how it went; the dialog closes when the promise resolves and shows the field issues
 * of a rejection). Callers that change `initial` remount it with a `key`.
 */
export function PostLoadDialog({
  initial,
  initialErrors,
  open: openProp,
  onOpenChange,
  onSubmitLoad,
  trigger,
  description,
  mode = "post",
}: {
  initial?: TPostLoadInitial;
  initialErrors?: TErrors;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  onSubmitLoad?: (load: TCreateLoadForm) => Promise<unknown>;
  /** Replaces the "Post New Load" button; null for none (the default when `open` is given). */
  trigger?: ReactNode;
  description?: ReactNode;
  /** "edit": the same form for a posted load's changes (its own title and button; a pickup left as it was may be past). */
  mode?: "post" | "edit";
} = {}) {
  const { t } = useLingui();
  const equipmentLabel = useEquipmentLabel();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const { units, weightUnit, currency } = usePreferences();
  const me = useMe().data;
  // A new load is priced in the account's currency unless the draft says otherwise.
  const defaultCurrency = initial?.budgetCurrency ?? me?.currency ?? currency;
  // The weight is typed in the reader's unit (kilograms for metric readers) and posted in pounds, as loads are kept.
  const initialWeight = initial?.weight == null ? undefined : Math.round(weightIn(initial.weight, units) * 10) / 10;
  const [openState, setOpenState] = useState(false);
  const open = openProp ?? openState;
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOpenState(next);
    onOpenChange?.(next);
  };
  const [pickup, setPickup] = useState<TSide>(() => sideOf(initial, "pickup"));
  const [delivery, setDelivery] = useState<TSide>(() => sideOf(initial, "delivery"));
  const [errors, setErrors] = useState<TErrors>(() => initialErrors ?? {});
  // The server's "confirm your email or phone first": shown in the form, which stays open.
  const [contactNeeded, setContactNeeded] = useState<string | null>(null);
  // The date pickers take no starting value: the initial dates are put in when the form mounts (browser calendar).
  const initialRef = useRef(initial);
  initialRef.current = initial;
  const fillDates = useCallback((form: HTMLFormElement | null) => {
    const start = initialRef.current;
    if (!form || !start) return;
    for (const name of ["pickupDate", "deliveryDate"] as const) {
      const input = form.elements.namedItem(name);
      const value = start[name];
      if (input instanceof HTMLInputElement && input.type === "datetime-local" && value && !input.value)
        input.value = toLocalInput(value);
    }
  }, []);
  const create = useMutation(
    trpc.loads.create.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        setPickup(EMPTY_SIDE);
        setDelivery(EMPTY_SIDE);
        setErrors({});
        setContactNeeded(null);
        toast({
          title: t({ message: "Load Created", comment: "Notice title after a load was posted" }),
          description: t`Your load has been posted successfully.`,
          variant: "success",
        });
        await queryClient.invalidateQueries();
      },
      onError: (err) => {
        if (isQueued(err)) return setOpen(false);
        if (onUnauthorized(err)) return;
        if (handleSubscriptionRequired(err)) return setOpen(false);
        const info = errorInfo(err);
        if (isContactRequired(err)) return setContactNeeded(info.message);
        if (info.issues.length) setErrors(Object.fromEntries(info.issues.map((i) => [i.path, i.message])));
        toast({ title: t`Error`, description: t`Failed to create load. Please try again.`, variant: "destructive" });
      },
    }),
  );
  // The caller's own submit: it toasts; here the dialog closes, or shows the field issues.
  const custom = useMutation({
    mutationFn: (load: TCreateLoadForm) => (onSubmitLoad ? onSubmitLoad(load) : Promise.resolve(null)),
    onSuccess: () => {
      setOpen(false);
      setErrors({});
    },
    onError: (err) => {
      const info = errorInfo(err);
      if (info.issues.length) setErrors(Object.fromEntries(info.issues.map((i) => [i.path, i.message])));
    },
  });
  const pending = create.isPending || custom.isPending;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const str = (k: string) => String(f.get(k) ?? "").trim();
    const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
    const next: TErrors = {};
    const required = t`Required`;
    if (!str("title")) next.title = required;
    if (!str("equipmentType")) next.equipmentType = required;
    for (const [prefix, side] of [
      ["pickup", pickup],
      ["delivery", delivery],
    ] as const) {
      if (!side.address.trim()) next[`${prefix}Address`] = required;
      if (!side.city.trim()) next[`${prefix}City`] = required;
      if (!side.country.trim()) next[`${prefix}Country`] = required;
      const lat = num(side.latitude);
      const lng = num(side.longitude);
      if (!(lat >= -90 && lat <= 90))
        next[`${prefix}Latitude`] = t({
          message: "Between -90 and 90",
          comment: "Form error under a latitude field: the allowed range",
        });
      if (!(lng >= -180 && lng <= 180))
        next[`${prefix}Longitude`] = t({
          message: "Between -180 and 180",
          comment: "Form error under a longitude field: the allowed range",
        });
    }
    const pickupDate = Date.parse(str("pickupDate"));
    const deliveryDate = Date.parse(str("deliveryDate"));
    // An edit keeps a pickup left as it was (to the minute the picker shows) even when it has passed.
    const keptPickup =
      mode === "edit" &&
      initial?.pickupDate != null &&
      Math.floor(pickupDate / 60_000) === Math.floor(Date.parse(initial.pickupDate) / 60_000);
    if (Number.isNaN(pickupDate)) next.pickupDate = required;
    else if (!keptPickup && pickupDate < Date.now() - 5 * 60_000) next.pickupDate = t`Pickup cannot be in the past`;
    if (Number.isNaN(deliveryDate)) next.deliveryDate = required;
    else if (!Number.isNaN(pickupDate) && deliveryDate <= pickupDate)
      next.deliveryDate = t`Delivery must be after pickup`;
    const weight = num(str("weight"));
    const budget = num(str("budgetAmount"));
    if (!(weight > 0)) next.weight = t`Enter a weight greater than 0`;
    if (!(budget > 0)) next.budgetAmount = t`Enter a budget greater than 0`;
    setErrors(next);
    if (Object.keys(next).length) {
      // The first field to fix gets the focus (after the errors render), so a keyboard or screen-reader user starts there.
      const form = e.currentTarget;
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    const load: TCreateLoadForm = {
      title: str("title"),
      description: str("description") || null,
      equipmentType: str("equipmentType") as (typeof EQUIPMENT_TYPES)[number],
      pickupAddress: pickup.address.trim(),
      pickupCity: pickup.city.trim(),
      pickupState: pickup.state.trim() || null,
      pickupCountry: pickup.country.trim(),
      pickupLatitude: Number(pickup.latitude),
      pickupLongitude: Number(pickup.longitude),
      deliveryAddress: delivery.address.trim(),
      deliveryCity: delivery.city.trim(),
      deliveryState: delivery.state.trim() || null,
      deliveryCountry: delivery.country.trim(),
      deliveryLatitude: Number(delivery.latitude),
      deliveryLongitude: Number(delivery.longitude),
      pickupDate: new Date(pickupDate).toISOString(),
      deliveryDate: new Date(deliveryDate).toISOString(),
      // Unchanged from the draft, the draft's own pounds go back (no round trip through kilograms).
      weight:
        initial?.weight != null && weight === initialWeight
          ? initial.weight
          : Math.round(weightToPounds(weight, units) * 10) / 10,
      budgetAmount: Math.round(budget * 100) / 100,
      budgetCurrency: str("budgetCurrency") as (typeof MONEY_CURRENCY_CODES)[number],
      specialInstructions: str("specialInstructions") || null,
    };
    if (onSubmitLoad) custom.mutate(load);
    else create.mutate(load);
  };
  const triggerNode =
    trigger !== undefined ? (
      trigger
    ) : openProp !== undefined ? null : (
      <Button data-testid="post-load">
        <Plus />
        <Trans>Post New Load</Trans>
      </Button>
    );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {triggerNode != null && <DialogTrigger asChild>{triggerNode}</DialogTrigger>}
      <DialogContent closeLabel={t`Close`} width="xl">
        <DialogHeader>
          <DialogTitle>
            {mode === "edit" ? (
              <Trans comment="Title of the form that changes a posted load's details">Edit load</Trans>
            ) : (
              <Trans>Post New Load</Trans>
            )}
          </DialogTitle>
          <DialogDescription>
            {description ?? <Trans>Drivers near the pickup will see it and bid.</Trans>}
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate ref={fillDates}>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              id="load-title"
              label=<Trans comment="Label of the load's title field in the post-load form">Title</Trans>
              name="title"
              maxLength={120}
              defaultValue={initial?.title ?? undefined}
              error={errors.title}
            />
            <div className="grid gap-1.5">
              <Label htmlFor="load-equipment">
                <Trans>Equipment</Trans>
              </Label>
              <NativeSelect
                id="load-equipment"
                name="equipmentType"
                defaultValue={initial?.equipmentType ?? ""}
                aria-invalid={!!errors.equipmentType}
                aria-describedby={errors.equipmentType ? "load-equipment-error" : undefined}
              >
                <option value="" disabled>
                  {t({
                    message: "Choose equipment",
                    comment:
                      "Empty first choice of the truck type list in the post-load form (equipment = type of truck or trailer)",
                  })}
                </option>
                {EQUIPMENT_TYPES.map((e) => (
                  <option key={e} value={e}>
                    {equipmentLabel(e)}
                  </option>
                ))}
              </NativeSelect>
              <FieldError id="load-equipment-error">{errors.equipmentType}</FieldError>
            </div>
          </div>
          <PlaceFields prefix="pickup" value={pickup} onChange={setPickup} errors={errors} />
          <PlaceFields prefix="delivery" value={delivery} onChange={setDelivery} errors={errors} />
          <div className="grid gap-3 sm:grid-cols-2">
            <DateTimeField
              id="load-pickup-date"
              label=<Trans>Pickup date and time</Trans>
              name="pickupDate"
              defaultValue={initial?.pickupDate}
              error={errors.pickupDate}
            />
            <DateTimeField
              id="load-delivery-date"
              label=<Trans>Delivery date and time</Trans>
              name="deliveryDate"
              defaultValue={initial?.deliveryDate}
              error={errors.deliveryDate}
            />
            <TextField
              id="load-weight"
              label={t({
                message: `Weight (${weightUnit})`,
                comment: "Post-load form: the load's weight; {weightUnit} is kg or lb",
              })}
              name="weight"
              type="number"
              inputMode="decimal"
              min="0.1"
              step="any"
              defaultValue={initialWeight}
              error={errors.weight}
            />
            <div className="grid grid-cols-[1fr_6.5rem] gap-2">
              <TextField
                id="load-budget"
                label=<Trans>Budget</Trans>
                name="budgetAmount"
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0.01"
                defaultValue={initial?.budgetAmount ?? undefined}
                error={errors.budgetAmount}
              />
              <div className="grid gap-1.5">
                <Label htmlFor="load-currency">
                  <Trans>Currency</Trans>
                </Label>
                <MoneyCurrencySelect id="load-currency" name="budgetCurrency" defaultValue={defaultCurrency} />
              </div>
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="load-description">
              <Trans comment="Label of an optional description field (load, package)">Description (optional)</Trans>
            </Label>
            <Textarea
              id="load-description"
              name="description"
              maxLength={2000}
              defaultValue={initial?.description ?? undefined}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="load-instructions">
              <Trans>Special instructions (optional)</Trans>
            </Label>
            <Textarea
              id="load-instructions"
              name="specialInstructions"
              maxLength={1000}
              defaultValue={initial?.specialInstructions ?? undefined}
            />
          </div>
          {contactNeeded ? <ContactNeeded message={contactNeeded} /> : null}
          <DialogFooter>
            <Button type="submit" disabled={pending} className="min-h-11 sm:min-h-9" data-testid="post-load-submit">
              {mode === "edit" ? (
                pending ? (
                  <Trans comment="Save button of the edit-load form while the changes are being saved">Saving...</Trans>
                ) : (
                  <Trans comment="Submit button of the edit-load form">Save changes</Trans>
                )
              ) : pending ? (
                <Trans comment="Post Load button while the load is being published">Posting...</Trans>
              ) : (
                <Trans comment="Header link for shippers and the post-load form's submit button: publish a new load for drivers to bid on">
                  Post Load
                </Trans>
              )}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
