import { useLingui } from "@lingui/react/macro";
import type { TEquipmentType, TMoneyCurrency } from "../../../shared/constants";
import {
  type BUDGET_MODES,
  credentialFieldsFor,
  DEFAULT_STORE_SYNC_MINUTES,
  IMPORTABLE_STATUSES,
  requiredFieldsFor,
  shopifyAppKind,
  type TEcommercePlatform,
  type TShopifyAppKind,
} from "../../../shared/schemas/stores";
import { type TCreateIntegrationInput, type TIntegration, useCredentialLabel } from "./shared";

export type TBudgetMode = (typeof BUDGET_MODES)[number];
export type TImportableStatus = (typeof IMPORTABLE_STATUSES)[number];

export type TWarehouseForm = {
  address: string;
  city: string;
  state: string;
  country: string;
  latitude: string;
  longitude: string;
};

/** The Add / Edit Integration form, as typed (numbers as text until sent). */
export type TIntegrationForm = {
  platform: TEcommercePlatform | "";
  name: string;
  isActive: boolean;
  /** Credentials typed in this form; on edit an empty field keeps what is saved. */
  credentials: Record<string, string>;
  /** Shopify: the kind of app the credentials are for (its fields are the ones shown and sent). */
  shopifyApp: TShopifyAppKind;
  warehouse: TWarehouseForm;
  defaultEquipmentType: TEquipmentType;
  budgetMode: TBudgetMode;
  budgetAmount: string;
  budgetCurrency: TMoneyCurrency;
  defaultWeightLbs: string;
  pickupLeadDays: string;
  importStatuses: TImportableStatus[];
  syncIntervalMinutes: string;
  apiBaseUrl: string;
};
export type TFormErrors = Record<string, string | undefined>;
export type TSetForm = (p: Partial<TIntegrationForm>) => void;

const str = (v: string | number | null | undefined) => (v == null ? "" : String(v));

/** The kind of app saved credentials are for: a Dev Dashboard app unless a legacy app's token is what is set. */
export const savedShopifyApp = (saved: Record<string, boolean> | null | undefined): TShopifyAppKind =>
  shopifyAppKind((f) => !!saved?.[f]) ?? "devDashboard";

export const initialForm = (editing: TIntegration | null): TIntegrationForm => {
  const s = editing?.settings;
  const w = s?.warehouse;
  return {
    platform: editing?.platform ?? "",
    name: editing?.name ?? "",
    isActive: editing?.isActive ?? true,
    credentials: {},
    shopifyApp: savedShopifyApp(editing?.credentials),
    warehouse: {
      address: str(w?.address),
      city: str(w?.city),
      state: str(w?.state),
      country: str(w?.country),
      latitude: str(w?.latitude),
      longitude: str(w?.longitude),
    },
    defaultEquipmentType: s?.defaultEquipmentType ?? "dry_van",
    budgetMode: s?.budget?.mode ?? "perMile",
    budgetAmount: str(s?.budget?.amount ?? 2.5),
    budgetCurrency: s?.budget?.currency ?? "USD",
    defaultWeightLbs: str(s?.defaultWeightLbs ?? 500),
    pickupLeadDays: str(s?.pickupLeadDays ?? 1),
    importStatuses: s?.importStatuses ? [...s.importStatuses] : ["pending", "processing"],
    syncIntervalMinutes: str(s?.syncIntervalMinutes ?? DEFAULT_STORE_SYNC_MINUTES),
    apiBaseUrl: str(s?.apiBaseUrl),
  };
};

/** The settings the server takes (it checks them again); the same form gives the same JSON. */
export const buildSettings = (f: TIntegrationForm): TCreateIntegrationInput["settings"] => ({
  warehouse: {
    address: f.warehouse.address.trim(),
    city: f.warehouse.city.trim(),
    state: f.warehouse.state.trim() || null,
    country: f.warehouse.country.trim(),
    latitude: Number(f.warehouse.latitude),
    longitude: Number(f.warehouse.longitude),
  },
  defaultEquipmentType: f.defaultEquipmentType,
  budget: { mode: f.budgetMode, amount: Number(f.budgetAmount), currency: f.budgetCurrency },
  defaultWeightLbs: Number(f.defaultWeightLbs),
  pickupLeadDays: Number(f.pickupLeadDays),
  importStatuses: IMPORTABLE_STATUSES.filter((s) => f.importStatuses.includes(s)),
  syncIntervalMinutes: Number(f.syncIntervalMinutes),
  apiBaseUrl: f.apiBaseUrl.trim().replace(/\/+$/, "") || null,
});

/** The typed credentials worth sending: trimmed, non-empty, of this platform. */
export const typedCredentials = (f: TIntegrationForm): Record<string, string> => {
  if (!f.platform) return {};
  const fields = credentialFieldsFor(f.platform, f.shopifyApp);
  return Object.fromEntries(
    Object.entries(f.credentials)
      .map(([k, v]) => [k, v.trim()] as const)
      .filter(([k, v]) => v !== "" && fields.includes(k)),
  );
};

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
};

const numberIn = (v: string, min: number, max: number, whole = false) => {
  const n = v.trim() === "" ? Number.NaN : Number(v);
  return n >= min && n <= max && (!whole || Number.isInteger(n));
};

/** The form's own checks, keyed by the paths the server names in its issues. */
export function useValidateIntegration() {
  const { t } = useLingui();
  const credentialLabel = useCredentialLabel();
  return (f: TIntegrationForm, editing: TIntegration | null): TFormErrors => {
    const next: TFormErrors = {};
    if (!f.platform) next.platform = t`Platform is required`;
    if (!f.name.trim()) next.name = t`Name is required`;
    if (f.platform)
      for (const field of requiredFieldsFor(f.platform, f.shopifyApp)) {
        if (f.credentials[field]?.trim() || editing?.credentials[field]) continue;
        const label = credentialLabel(f.platform, field);
        next[`credentials.${field}`] = t({
          message: `${label} is required`,
          comment: "Form error under an empty credential field: the named field must be filled",
        });
      }
    const w = f.warehouse;
    if (!w.address.trim()) next["settings.warehouse.address"] = t`Warehouse address is required`;
    if (!w.city.trim()) next["settings.warehouse.city"] = t`Warehouse city is required`;
    else if (w.latitude === "" || w.longitude === "" || !w.country.trim())
      next["settings.warehouse.city"] = t`Pick the city from the suggestions so the warehouse is on the map`;
    if (!(Number(f.budgetAmount) > 0)) next["settings.budget.amount"] = t`Enter an amount greater than 0`;
    if (!numberIn(f.defaultWeightLbs, Number.MIN_VALUE, 250_000))
      next["settings.defaultWeightLbs"] = t`Enter a weight between 0 and 250000`;
    if (!numberIn(f.pickupLeadDays, 0, 30, true))
      next["settings.pickupLeadDays"] = t`Enter a whole number from 0 to 30`;
    if (!numberIn(f.syncIntervalMinutes, 5, 1440, true))
      next["settings.syncIntervalMinutes"] = t`Enter a whole number from 5 to 1440`;
    if (f.importStatuses.length === 0) next["settings.importStatuses"] = t`Choose at least one status`;
    const url = f.apiBaseUrl.trim();
    if (url && !isHttpUrl(url)) next["settings.apiBaseUrl"] = t`API base URL must be an http or https address`;
    return next;
  };
}
