import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { LOAD_SORTS } from "../../../shared/constants";
import {
  expectSameAsReference,
  zDay,
  zEquipment,
  zLatitude,
  zLongitude,
  zNumber,
  zRadius,
  zText,
  zWholeFrom,
} from "./address-reader-testing";
import { parseBoardSearch } from "./board-search";

// The zod schema the board's address was read with before the reader was written out by hand (zod is not part of the
// landing page's first load). The hand-written reader must give the same answer for every address.
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);
const ZReference = z.object({
  highlight: z.coerce.number().int().positive().optional().catch(undefined),
  location: zText(100),
  origin: zText(200),
  latitude: zLatitude,
  longitude: zLongitude,
  radius: zRadius,
  destination: zText(200),
  destinationLatitude: zLatitude,
  destinationLongitude: zLongitude,
  destinationRadius: zRadius,
  pickupFrom: zDay,
  pickupTo: zDay,
  equipmentType: zEquipment,
  loadSize: oneOf(["full", "partial"] as const),
  sourceType: oneOf(["mytess", "external"] as const),
  maxWeight: zNumber.pipe(z.number().gt(0).optional()).catch(undefined),
  minRate: zNumber.pipe(z.number().min(0).optional()).catch(undefined),
  sort: oneOf(LOAD_SORTS),
  page: zWholeFrom(1),
});

describe("the board's address reader", () => {
  test("gives what the zod schema gave for every value in every field, and for mixed addresses with unknown keys", () => {
    expectSameAsReference(parseBoardSearch, ZReference, ["unknown", "filter"]);
  });

  test("keeps a full, valid address as it is and drops what it cannot hold", () => {
    const address = {
      origin: "Chicago, IL, US",
      latitude: 41.88,
      longitude: -87.63,
      radius: 100,
      destination: "Dallas, TX, US",
      destinationLatitude: 32.78,
      destinationLongitude: -96.8,
      destinationRadius: 250,
      pickupFrom: "2026-12-01",
      pickupTo: "2026-12-07",
      equipmentType: "dry_van,refrigerated",
      loadSize: "full",
      sourceType: "mytess",
      maxWeight: 40000,
      minRate: 2.5,
      sort: "rate",
      page: 3,
      highlight: 17,
    };
    expect(parseBoardSearch(address)).toStrictEqual(address as never);
    expect(parseBoardSearch({ radius: 30, page: "0", sort: "price", latitude: 91, evil: "<script>" })).toStrictEqual({
      radius: undefined,
      page: undefined,
      sort: undefined,
      latitude: undefined,
    });
  });
});
