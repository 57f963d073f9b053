// Weight and size conversions, and the billable weight carriers charge for.

export const LB_PER_KG = 2.20462262;
export const CM_PER_IN = 2.54;
/** Domestic dimensional-weight divisor in cubic inches per pound (FedEx, UPS and USPS retail). */
export const DIM_DIVISOR_IN3_PER_LB = 139;

export const kgToLb = (kg: number) => kg * LB_PER_KG;
export const lbToKg = (lb: number) => lb / LB_PER_KG;
export const cmToIn = (cm: number) => cm / CM_PER_IN;
export const inToCm = (inches: number) => inches * CM_PER_IN;

export type TWeightUnit = "LBS" | "KG";
export type TDimensionUnit = "IN" | "CM";

export const toPounds = (value: number, unit: TWeightUnit) => (unit === "KG" ? kgToLb(value) : value);
export const toInches = (value: number, unit: TDimensionUnit) => (unit === "CM" ? cmToIn(value) : value);

/** The larger of actual and dimensional weight, in pounds. */
export const billablePounds = (p: {
  weight: number;
  weightUnit: TWeightUnit;
  length?: number | null;
  width?: number | null;
  height?: number | null;
  dimensionUnit: TDimensionUnit;
}) => {
  const actual = toPounds(p.weight, p.weightUnit);
  if (!p.length || !p.width || !p.height) return actual;
  const cubic =
    toInches(p.length, p.dimensionUnit) * toInches(p.width, p.dimensionUnit) * toInches(p.height, p.dimensionUnit);
  return Math.max(actual, cubic / DIM_DIVISOR_IN3_PER_LB);
};
