import { useLingui } from "@lingui/react/macro";

/** The translated name of an equipment type. */
export function useEquipmentLabel() {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    dry_van: t({ message: "Dry van", comment: "Truck/equipment type: a closed box trailer (dry van), not a minibus" }),
    refrigerated: t({
      message: "Refrigerated",
      comment: "Truck/equipment type: a refrigerated truck or trailer (reefer)",
    }),
    flatbed: t({
      message: "Flatbed",
      comment: "Truck/equipment type: a flat open trailer without sides (flatbed), not a bed",
    }),
    step_deck: t({ message: "Step deck", comment: "Truck/equipment type: a trailer with two deck levels (step deck)" }),
    lowboy: t({
      message: "Lowboy",
      comment: "Truck/equipment type: a low trailer for heavy machines (lowboy, called lowbed in East Africa)",
    }),
    tanker: t({ message: "Tanker", comment: "Truck/equipment type: a tank truck for liquids (tanker)" }),
    container: t({
      message: "Container",
      comment: "Truck/equipment type: a container carrier (truck for shipping containers)",
    }),
  };
  return (type: string) => labels[type] ?? type;
}

export function EquipmentLabel({ type }: { type: string }) {
  return <>{useEquipmentLabel()(type)}</>;
}
