import { expect, test } from "bun:test";
import { billablePounds, cmToIn, inToCm, kgToLb, lbToKg, toInches, toPounds } from "./units";

test("pounds and kilograms, inches and centimetres convert both ways", () => {
  expect(kgToLb(1)).toBeCloseTo(2.20462, 4);
  expect(lbToKg(2.20462262)).toBeCloseTo(1, 6);
  expect(inToCm(1)).toBe(2.54);
  expect(cmToIn(25.4)).toBeCloseTo(10, 10);
  expect(toPounds(10, "KG")).toBeCloseTo(22.046, 2);
  expect(toPounds(10, "LBS")).toBe(10);
  expect(toInches(30, "CM")).toBeCloseTo(11.811, 3);
});

test("billable weight is the larger of actual and dimensional weight", () => {
  // 20 × 20 × 20 in = 8000 in³ / 139 = 57.6 lb, more than the 10 lb it weighs.
  expect(
    billablePounds({ weight: 10, weightUnit: "LBS", length: 20, width: 20, height: 20, dimensionUnit: "IN" }),
  ).toBeCloseTo(57.55, 1);
  // A small heavy box pays for its weight.
  expect(
    billablePounds({ weight: 30, weightUnit: "LBS", length: 10, width: 10, height: 10, dimensionUnit: "IN" }),
  ).toBe(30);
  // Metric in, pounds out.
  expect(
    billablePounds({ weight: 5, weightUnit: "KG", length: 50, width: 40, height: 30, dimensionUnit: "CM" }),
  ).toBeCloseTo((50 * 40 * 30) / 2.54 ** 3 / 139, 2);
  // Without all three dimensions, only the weight counts.
  expect(
    billablePounds({ weight: 3, weightUnit: "LBS", length: 20, width: null, height: 20, dimensionUnit: "IN" }),
  ).toBe(3);
});
