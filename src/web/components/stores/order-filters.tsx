import { Trans, useLingui } from "@lingui/react/macro";
import { ORDER_STATUSES, type TOrderStatus } from "../../../shared/schemas/stores";
import { Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { type TIntegration, useOrderStatusLabel } from "./shared";

export type TOrderFilter = { integrationId: number | null; status: TOrderStatus | null };

/** Which integration's orders, and which status. */
export function OrderFilters({
  integrations,
  value,
  onChange,
}: {
  integrations: TIntegration[];
  value: TOrderFilter;
  onChange: (f: TOrderFilter) => void;
}) {
  const { t } = useLingui();
  const statusLabel = useOrderStatusLabel();
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:max-w-2xl">
      <div className="grid gap-2">
        <Label htmlFor="ec-orders-integration">
          <Trans comment="Orders filter: which connected store">Integration</Trans>
        </Label>
        <NativeSelect
          id="ec-orders-integration"
          value={value.integrationId ?? ""}
          data-testid="orders-integration-filter"
          onChange={(e) => onChange({ ...value, integrationId: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">
            {t({ message: "All integrations", comment: "Orders filter choice: orders from every connected store" })}
          </option>
          {integrations.map((i) => (
            <option key={i.id} value={i.id}>
              {i.name} ({i.platformName})
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="ec-orders-status">
          <Trans comment="Column header and filter label: the status of a load or an order">Status</Trans>
        </Label>
        <NativeSelect
          id="ec-orders-status"
          value={value.status ?? ""}
          data-testid="orders-status-filter"
          onChange={(e) => onChange({ ...value, status: (e.target.value || null) as TOrderStatus | null })}
        >
          <option value="">
            {t({ message: "All statuses", comment: "Filter choice: orders or loads of every status" })}
          </option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
