import { Trans, useLingui } from "@lingui/react/macro";
import { Plus, Trash2 } from "lucide-react";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Input, Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";

export type TPackageForm = {
  key: number;
  weight: string;
  weightUnit: "LBS" | "KG";
  length: string;
  width: string;
  height: string;
  dimensionUnit: "IN" | "CM";
  declaredValue: string;
  description: string;
};

let nextKey = 1;
/** A package added later starts with only weight 1, LBS and IN. */
export const newPackage = (): TPackageForm => ({
  key: nextKey++,
  weight: "1",
  weightUnit: "LBS",
  length: "",
  width: "",
  height: "",
  dimensionUnit: "IN",
  declaredValue: "",
  description: "",
});

const num = (s: string) => (s.trim() === "" ? undefined : Number(s));
export const packageInput = (p: TPackageForm) => ({
  weight: Number(p.weight),
  weightUnit: p.weightUnit,
  length: num(p.length),
  width: num(p.width),
  height: num(p.height),
  dimensionUnit: p.dimensionUnit,
  declaredValue: num(p.declaredValue),
  description: p.description.trim() || undefined,
});

export function PackagesCard({ value, onChange }: { value: TPackageForm[]; onChange: (v: TPackageForm[]) => void }) {
  const { t } = useLingui();
  const set = (key: number, patch: Partial<TPackageForm>) =>
    onChange(value.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  return (
    <Card data-testid="packages-card">
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>
            <Trans comment="Parcel form card title: size and weight of the packages">Package Details</Trans>
          </CardTitle>
          <Button type="button" size="sm" variant="outline" onClick={() => onChange([...value, newPackage()])}>
            <Plus />
            <Trans comment="Parcel calculator button: add another package">Add Package</Trans>
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {value.map((p, i) => {
          const n = i + 1;
          const id = `pkg-${p.key}`;
          return (
            <fieldset key={p.key} className="grid gap-3 rounded-md border p-3 sm:grid-cols-4" data-testid="package">
              <legend className="flex items-center gap-2 px-1 text-sm font-semibold">
                <Trans comment="Parcel form: heading of package number {n}">Package {n}</Trans>
                {value.length > 1 && (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    aria-label={t({
                      message: `Remove package ${n}`,
                      comment: "Screen-reader label of the button that removes package number {n} from the parcel form",
                    })}
                    onClick={() => onChange(value.filter((x) => x.key !== p.key))}
                  >
                    <Trash2 />
                    <Trans comment="Button on a package in the parcel form: remove this package">Remove</Trans>
                  </Button>
                )}
              </legend>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-weight`}>
                  <Trans comment="Parcel form: weight of the package">Weight</Trans>
                </Label>
                <Input
                  id={`${id}-weight`}
                  type="number"
                  min="0.1"
                  step="0.1"
                  inputMode="decimal"
                  value={p.weight}
                  onChange={(e) => set(p.key, { weight: e.target.value })}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-wunit`}>
                  <Trans comment="Parcel form: unit of the package's weight (pounds, kilograms)">Weight unit</Trans>
                </Label>
                <NativeSelect
                  id={`${id}-wunit`}
                  value={p.weightUnit}
                  onChange={(e) => set(p.key, { weightUnit: e.target.value as "LBS" | "KG" })}
                >
                  <option value="LBS">
                    {t({ message: "Pounds (LBS)", comment: "Parcel weight unit choice: pounds" })}
                  </option>
                  <option value="KG">
                    {t({ message: "Kilograms (KG)", comment: "Parcel weight unit choice: kilograms" })}
                  </option>
                </NativeSelect>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-dunit`}>
                  <Trans comment="Parcel form: unit of the package's dimensions (inches, centimeters)">
                    Dimension unit
                  </Trans>
                </Label>
                <NativeSelect
                  id={`${id}-dunit`}
                  value={p.dimensionUnit}
                  onChange={(e) => set(p.key, { dimensionUnit: e.target.value as "IN" | "CM" })}
                >
                  <option value="IN">
                    {t({ message: "Inches", comment: "Parcel dimension unit choice: inches" })}
                  </option>
                  <option value="CM">
                    {t({ message: "Centimeters", comment: "Parcel dimension unit choice: centimeters" })}
                  </option>
                </NativeSelect>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-value`}>
                  <Trans>Declared value (optional)</Trans>
                </Label>
                <Input
                  id={`${id}-value`}
                  type="number"
                  min="0"
                  step="0.01"
                  inputMode="decimal"
                  value={p.declaredValue}
                  onChange={(e) => set(p.key, { declaredValue: e.target.value })}
                />
              </div>
              {(["length", "width", "height"] as const).map((k) => (
                <div key={k} className="grid gap-1.5">
                  <Label htmlFor={`${id}-${k}`}>
                    {k === "length"
                      ? t({ message: "Length", comment: "Parcel dimension: length of the package" })
                      : k === "width"
                        ? t({ message: "Width", comment: "Parcel dimension: width of the package" })
                        : t({ message: "Height", comment: "Parcel dimension: height of the package" })}
                  </Label>
                  <Input
                    id={`${id}-${k}`}
                    type="number"
                    min="0"
                    step="0.1"
                    inputMode="decimal"
                    value={p[k]}
                    onChange={(e) => set(p.key, { [k]: e.target.value })}
                  />
                </div>
              ))}
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-desc`}>
                  <Trans>Description (optional)</Trans>
                </Label>
                <Input
                  id={`${id}-desc`}
                  value={p.description}
                  onChange={(e) => set(p.key, { description: e.target.value })}
                />
              </div>
            </fieldset>
          );
        })}
      </CardContent>
    </Card>
  );
}
