import type { TAddress, TPackage, TRateOption, TTrackingResult } from "../../../shared/schemas/shipping";
import type { TCarrier } from "../../../shared/tracking-number";

export type TRateRequest = { shipper: TAddress; recipient: TAddress; packages: TPackage[]; shipDate?: Date };

export type TCarrierSettings = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  accountNumber?: string;
  timeoutMs: number;
  /** Requests a carrier allows per hour, token requests included (USPS); none when unset or not positive. */
  hourlyQuota?: number;
  /** Sandbox hosts and local emulators are labelled "Sandbox" in the interface. */
  sandbox: boolean;
};

/** What every parcel carrier adapter offers, whatever its wire format. */
export type TCarrierAdapter = {
  id: TCarrier;
  name: string;
  sandbox: boolean;
  rates: (req: TRateRequest) => Promise<TRateOption[]>;
  track: (trackingNumber: string) => Promise<TTrackingResult>;
};
