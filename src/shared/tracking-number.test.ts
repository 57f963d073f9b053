import { describe, expect, test } from "bun:test";
import {
  detectCarriers,
  isValidFedex12,
  isValidFedex15,
  isValidFedex20,
  isValidFedex96,
  isValidImpb,
  isValidS10,
  isValidUps1Z,
  isValidUsps20,
} from "./tracking-number";

// Valid samples from the carriers' documentation and Karrio fixtures; each broken
// sample changes only the check digit.
const cases: [string, (n: string) => boolean, string[], string[]][] = [
  [
    "UPS 1Z",
    isValidUps1Z,
    ["1Z5R89390357567127", "1Z879E930346834440", "1ZA82D672031716786"],
    ["1Z5R89390357567128", "1Z12345E0205271688"],
  ],
  [
    "FedEx 12",
    isValidFedex12,
    ["568838414941", "797806677146", "581190049992", "128667043726", "399368623212"],
    ["568838414942", "797806677140"],
  ],
  [
    "FedEx 15",
    isValidFedex15,
    ["449044304137821", "149331877648230", "020207021381215"],
    ["449044304137822", "149331877648231"],
  ],
  ["FedEx 96", isValidFedex96, ["9611020987654312345672"], ["9611020987654312345673"]],
  [
    "FedEx 20",
    isValidFedex20,
    ["02394653001023698293", "61292701078443410536", "61292700726653585070", "02394653018047202719"],
    ["02394653001023698294"],
  ],
  ["USPS 20", isValidUsps20, ["03071790000523483741"], ["03071790000523483742"]],
  [
    "USPS IMpb",
    isValidImpb,
    ["9400111206206406260787", "9400109104250532908587", "92419900000033499522966220"],
    ["9400111206206406260788"],
  ],
  ["UPU S10", isValidS10, ["RB123456785GB", "AA999999995US", "EA473124829US"], ["AA999999999US", "RB123456784GB"]],
];

describe.each(cases)("%s check digit", (_name, valid, good, bad) => {
  test.each(good)("accepts %s", (n) => expect(valid(n)).toBe(true));
  test.each(bad)("refuses %s", (n) => expect(valid(n)).toBe(false));
});

describe("detectCarriers", () => {
  const first = (n: string) => detectCarriers(n)[0]?.carrier;
  test("by format and check digit", () => {
    expect(first("1Z5R89390357567127")).toBe("ups");
    expect(first("1z5r 8939 0357 5671 27")).toBe("ups");
    expect(first("568838414941")).toBe("fedex");
    expect(first("449044304137821")).toBe("fedex");
    expect(first("9611020987654312345672")).toBe("fedex");
    expect(first("02394653001023698293")).toBe("fedex");
    expect(first("9400109104250532908587")).toBe("usps");
    expect(first("4201002334249200190132607600833457")).toBe("usps");
    expect(first("EA473124829US")).toBe("usps");
    expect(first("03071790000523483741")).toBe("usps");
  });
  test("numbers that fit no format, or fail their check digit, are not guessed", () => {
    expect(detectCarriers("12345")).toEqual([]);
    expect(detectCarriers("1Z5R89390357567128")).toEqual([]);
    expect(detectCarriers("AA999999999US")).toEqual([]);
    expect(detectCarriers("hello world")).toEqual([]);
  });
});
