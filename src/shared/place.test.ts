import { expect, test } from "bun:test";
import { placeLabel } from "./place";

test("a place names each part once, in order, without empty parts", () => {
  expect(placeLabel("Addis Ababa", "Addis Ababa", "Ethiopia")).toBe("Addis Ababa, Ethiopia");
  expect(placeLabel("Djibouti", null, "Djibouti")).toBe("Djibouti");
  expect(placeLabel("Adama", "Oromia", "Ethiopia")).toBe("Adama, Oromia, Ethiopia");
  expect(placeLabel("Chicago", " ", "US")).toBe("Chicago, US");
  expect(placeLabel("Dire Dawa", "dire dawa", "Ethiopia")).toBe("Dire Dawa, Ethiopia");
});
