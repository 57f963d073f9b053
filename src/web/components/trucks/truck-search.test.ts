import { describe, expect, test } from "bun:test";
import { z } from "zod";
import {
  expectSameAsReference,
  zDay,
  zEquipment,
  zLatitude,
  zLongitude,
  zRadius,
  zText,
  zWholeFrom,
} from "../loads/address-reader-testing";
import { parseFindTrucksSearch } from "./truck-search";

// The zod schema the truck search's address was read with before the reader was written out by hand (zod is not part
// of the first load). The hand-written reader must give the same answer for every address.
const ZReference = z.object({
  load: z.coerce.number().int().positive().optional().catch(undefined),
  origin: zText(200),
  latitude: zLatitude,
  longitude: zLongitude,
  radius: zRadius,
  destination: zText(200),
  destinationLatitude: zLatitude,
  destinationLongitude: zLongitude,
  destinationRadius: zRadius,
  from: zDay,
  to: zDay,
  equipmentType: zEquipment,
  page: zWholeFrom(1),
});

describe("the truck search's address reader", () => {
  test("gives what the zod schema gave for every value in every field, and for mixed addresses with unknown keys", () => {
    expectSameAsReference(parseFindTrucksSearch, ZReference, ["unknown", "sort"]);
  });

  test("keeps a valid address as it is", () => {
    const address = {
      load: 12,
      origin: "Addis Ababa, ET",
      latitude: 9.03,
      longitude: 38.74,
      radius: 100,
      destination: "Adama, ET",
      destinationLatitude: 8.54,
      destinationLongitude: 39.27,
      destinationRadius: 50,
      from: "2026-12-01",
      to: "2026-12-07",
      equipmentType: "dry_van,flatbed",
      page: 2,
    };
    expect(parseFindTrucksSearch(address)).toStrictEqual(address);
  });
});
