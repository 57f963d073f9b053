import { Trans, useLingui } from "@lingui/react/macro";
import { EQUIPMENT_TYPES, type TEquipmentType, type TMoneyCurrency } from "../../../shared/constants";
import { BUDGET_MODES } from "../../../shared/schemas/stores";
import { useEquipmentLabel } from "../loads/equipment-label";
import { MoneyCurrencySelect } from "../loads/money-currency-select";
import { Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import type { TBudgetMode, TFormErrors, TIntegrationForm, TSetForm } from "./integration-form";

/** What the loads made from orders get: equipment, budget rule, weight when the items have none, pickup lead time. */
export function LoadDefaultsFields({
  form,
  errors,
  onChange,
}: {
  form: TIntegrationForm;
  errors: TFormErrors;
  onChange: TSetForm;
}) {
  const { t } = useLingui();
  const equipmentLabel = useEquipmentLabel();
  const modes: Record<TBudgetMode, string> = {
    perMile: t({
      message: "Per mile",
      comment: "Store setting choice: the load's budget is a price per mile of the trip",
    }),
    fixed: t({
      message: "Fixed amount",
      comment: "Store setting choice: the same budget for every load made from an order",
    }),
    percentOfOrder: t`Percent of the order total`,
  };
  const percent = form.budgetMode === "percentOfOrder";
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" data-testid="load-defaults-fields">
      <legend className="px-1 text-sm font-semibold">
        <Trans>Loads from orders</Trans>
      </legend>
      <div className="grid gap-2">
        <Label htmlFor="ec-equipment">
          <Trans comment="Label of the truck type choice (equipment = type of truck or trailer, not a device)">
            Equipment
          </Trans>
        </Label>
        <NativeSelect
          id="ec-equipment"
          value={form.defaultEquipmentType}
          onChange={(e) => onChange({ defaultEquipmentType: e.target.value as TEquipmentType })}
        >
          {EQUIPMENT_TYPES.map((e) => (
            <option key={e} value={e}>
              {equipmentLabel(e)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="ec-budget-mode">
          <Trans comment="Store settings: how the budget of a load made from an order is computed (per mile, fixed, percent)">
            Budget rule
          </Trans>
        </Label>
        <NativeSelect
          id="ec-budget-mode"
          value={form.budgetMode}
          onChange={(e) => onChange({ budgetMode: e.target.value as TBudgetMode })}
        >
          {BUDGET_MODES.map((m) => (
            <option key={m} value={m}>
              {modes[m]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid grid-cols-[1fr_6.5rem] gap-2">
        <TextField
          id="ec-budget-amount"
          label={
            percent ? (
              <Trans comment="Store settings: the budget as a percent of the order total">Percent</Trans>
            ) : (
              <Trans comment="Store settings: the fixed budget amount given to each load made from an order">
                Amount
              </Trans>
            )
          }
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          value={form.budgetAmount}
          error={errors["settings.budget.amount"]}
          onChange={(e) => onChange({ budgetAmount: e.target.value })}
        />
        <div className="grid gap-2">
          <Label htmlFor="ec-budget-currency">
            <Trans comment="Label of a currency choice (USD, EUR, ETB): for a bid or budget, and for showing prices">
              Currency
            </Trans>
          </Label>
          <MoneyCurrencySelect
            id="ec-budget-currency"
            value={form.budgetCurrency}
            onChange={(e) => onChange({ budgetCurrency: e.target.value as TMoneyCurrency })}
          />
        </div>
      </div>
      <TextField
        id="ec-weight"
        label={<Trans>Default weight (lbs)</Trans>}
        type="number"
        inputMode="decimal"
        min="1"
        value={form.defaultWeightLbs}
        error={errors["settings.defaultWeightLbs"]}
        onChange={(e) => onChange({ defaultWeightLbs: e.target.value })}
      />
      <TextField
        id="ec-lead-days"
        label={<Trans>Pickup lead time (days)</Trans>}
        type="number"
        inputMode="numeric"
        min={0}
        max={30}
        step={1}
        value={form.pickupLeadDays}
        error={errors["settings.pickupLeadDays"]}
        onChange={(e) => onChange({ pickupLeadDays: e.target.value })}
      />
      <p className="text-xs text-muted-foreground sm:col-span-2">
        <Trans>
          The weight is used when the order's items carry none; the pickup is this many days after the order.
        </Trans>
      </p>
    </fieldset>
  );
}
