// Valid tracking numbers (right format and check digit) whose emulator story is known: for tests and the demo.
import { isValidFedex12, isValidImpb, isValidUps1Z } from "../../src/shared/tracking-number";
import { scenarioOf, type TScenario } from "./model";

const withCheck = (prefix: string, valid: (n: string) => boolean) => {
  for (let d = 0; d <= 9; d++) if (valid(`${prefix}${d}`)) return `${prefix}${d}`;
  throw new Error(`no check digit makes ${prefix} valid`);
};

const find = (make: (i: number) => string, scenario: TScenario) => {
  for (let i = 1; i < 100_000; i++) {
    const n = make(i);
    if (scenarioOf(n) === scenario) return n;
  }
  throw new Error(`no number found for ${scenario}`);
};

/** Digits before the check digit ending in 0000 mean "not found" in every emulator; other stories follow the hash. */
export const sampleNumber = (carrier: "fedex" | "ups" | "usps", scenario: TScenario) => {
  const tail = scenario === "not_found" ? "0000" : "4821";
  const make = {
    ups: (i: number) => withCheck(`1Z4E5R12${String(i).padStart(5, "0")}${tail}`, isValidUps1Z),
    fedex: (i: number) => withCheck(`7${String(i).padStart(6, "0")}${tail}`, isValidFedex12),
    usps: (i: number) => withCheck(`94001112062${String(i).padStart(6, "0")}${tail}`, isValidImpb),
  }[carrier];
  return find(make, scenario);
};
