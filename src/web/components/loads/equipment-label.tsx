import { useLingui } from "@lingui/react/macro";

/** The translated name of an equipment type. */
export function useEquipmentLabel() {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    dry_van: t`Dry van`,
    refrigerated: t`Refrigerated`,
    flatbed: t`Flatbed`,
    step_deck: t`Step deck`,
    lowboy: t`Lowboy`,
    tanker: t`Tanker`,
    container: t`Container`,
  };
  return (type: string) => labels[type] ?? type;
}

export function EquipmentLabel({ type }: { type: string }) {
  return <>{useEquipmentLabel()(type)}</>;
}
