import { z } from "zod";
import { CARRIERS } from "../tracking-number";
import { zText } from "./text";

const SHIPPER_MESSAGE = "Please fill in all shipper address fields.";
const RECIPIENT_MESSAGE = "Please fill in all recipient address fields.";

const optionalText = (max: number) =>
  zText()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || undefined)
    .optional();

/** An address; street1, city, state and postal code are required, with the form's messages for each. */
const address = (missing: string) =>
  z.object({
    name: optionalText(100),
    company: optionalText(100),
    street1: zText({ error: missing }).trim().min(1, missing).max(200),
    street2: optionalText(200),
    city: zText({ error: missing }).trim().min(1, missing).max(100),
    state: zText({ error: missing }).trim().min(1, missing).max(2, "state must be at most 2 characters").toUpperCase(),
    postalCode: zText({ error: missing }).trim().min(1, missing).max(12),
    countryCode: zText()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "countryCode must be a 2-letter country code")
      .default("US"),
    phone: optionalText(30),
  });

export const ZShipperAddress = address(SHIPPER_MESSAGE);
export const ZRecipientAddress = address(RECIPIENT_MESSAGE);
export type TAddress = z.infer<typeof ZShipperAddress>;

const dimension = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, `${field} must be 0 or more`)
    .max(500, `${field} must be at most 500`)
    .nullish();

export const ZPackage = z.object({
  weight: z
    .number({ error: "weight must be a number" })
    .min(0.1, "weight must be at least 0.1")
    .max(2000, "weight must be at most 2000")
    .default(1),
  weightUnit: z.enum(["LBS", "KG"], { error: "weightUnit must be LBS or KG" }).default("LBS"),
  length: dimension("length"),
  width: dimension("width"),
  height: dimension("height"),
  dimensionUnit: z.enum(["IN", "CM"], { error: "dimensionUnit must be IN or CM" }).default("IN"),
  declaredValue: z
    .number({ error: "declaredValue must be a number" })
    .min(0, "declaredValue must be 0 or more")
    .nullish(),
  description: optionalText(200),
});
export type TPackage = z.infer<typeof ZPackage>;

export const ZCarrier = z.enum(CARRIERS, { error: "carrier must be fedex, ups or usps" });

export const ZRatesInput = z.object({
  shipper: ZShipperAddress,
  recipient: ZRecipientAddress,
  packages: z
    .array(ZPackage, { error: "packages must be a list" })
    .min(1, "Add at least one package")
    .max(25, "At most 25 packages"),
  carrier: ZCarrier.optional(),
});
export type TRatesInput = z.infer<typeof ZRatesInput>;

export const ZTrackInput = z.object({
  trackingNumber: zText({ error: "Please enter a tracking number." })
    .trim()
    .min(1, "Please enter a tracking number.")
    .max(40, "That tracking number is too long"),
  carrier: ZCarrier.optional(),
});

export type TRateOption = {
  carrier: (typeof CARRIERS)[number];
  serviceCode: string;
  serviceName: string;
  transitTime: string;
  totalCost: number;
  currency: string;
  deliveryDays: number | null;
  guaranteedDelivery: boolean;
};

export type TTrackingStatus = "delivered" | "in_transit" | "exception" | "pending" | "unknown";
export type TPlaceRef = { city?: string | null; state?: string | null; country?: string | null };
export type TTrackingResult = {
  carrier: (typeof CARRIERS)[number];
  trackingNumber: string;
  status: TTrackingStatus;
  service: string | null;
  currentLocation: TPlaceRef | null;
  estimatedDelivery: string | null;
  actualDelivery: string | null;
  events: { description: string; date: string; location?: TPlaceRef | null; status: TTrackingStatus }[];
};
