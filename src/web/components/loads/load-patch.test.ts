import { describe, expect, test } from "bun:test";
import type { TCreateLoadForm } from "../../../shared/schemas/loads";
import { changedFields } from "./load-patch";

const posted: TCreateLoadForm = {
  title: "Cement, 40 t",
  description: null,
  equipmentType: "flatbed",
  pickupAddress: "Kality Customs Terminal",
  pickupCity: "Addis Ababa",
  pickupState: null,
  pickupCountry: "Ethiopia",
  pickupLatitude: 8.9,
  pickupLongitude: 38.77,
  deliveryAddress: "Adama Industrial Park",
  deliveryCity: "Adama",
  deliveryState: null,
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 8.54,
  deliveryLongitude: 39.27,
  pickupDate: "2026-12-01T07:00:30.123Z",
  deliveryDate: "2026-12-02T07:00:00.000Z",
  weight: 40000,
  budgetAmount: 1000,
  budgetCurrency: "USD",
  specialInstructions: null,
};

describe("the edit form's patch", () => {
  test("a form saved as it was sends nothing, though the picker drops the seconds of the dates", () => {
    expect(
      changedFields(posted, { ...posted, pickupDate: "2026-12-01T07:00:00.000Z", deliveryDate: posted.deliveryDate }),
    ).toEqual({});
  });

  test("only the fields that moved: a weight, a date moved by a minute, an instruction added", () => {
    expect(
      changedFields(posted, {
        ...posted,
        weight: 32000,
        deliveryDate: "2026-12-02T07:01:00.000Z",
        specialInstructions: "Gate 3",
      }),
    ).toEqual({ weight: 32000, deliveryDate: "2026-12-02T07:01:00.000Z", specialInstructions: "Gate 3" });
  });

  test("an optional text emptied is sent as null, to clear it", () => {
    expect(changedFields({ ...posted, description: "Bagged" }, { ...posted, description: null })).toEqual({
      description: null,
    });
  });
});
