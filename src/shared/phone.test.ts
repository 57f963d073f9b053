import { expect, test } from "bun:test";
import { normalizePhone } from "./phone";

test("Ethiopian numbers in local and international forms become E.164", () => {
  for (const s of [
    "0911234567",
    "0911 23 45 67",
    "+251911234567",
    "+251 911 234 567",
    "00251911234567",
    "251911234567",
    "911234567",
  ])
    expect(normalizePhone(s)).toBe("+251911234567");
  expect(normalizePhone("0712-345-678")).toBe("+251712345678");
  expect(normalizePhone("011 551 2345")).toBe("+251115512345");
});

test("other countries keep their international form", () => {
  expect(normalizePhone("+1 (312) 555-0100")).toBe("+13125550100");
  expect(normalizePhone("+31 20 123 4567")).toBe("+31201234567");
});

test("anything else is not a phone number", () => {
  for (const s of [
    "",
    "abc",
    "091123456",
    "09112345678",
    "+2510911234567",
    "+251011234567",
    "12345",
    "+0123456789",
    "09-11-ab",
  ])
    expect(normalizePhone(s)).toBeNull();
});
