// The parts of the carriers' answers we read, as loose zod schemas: unknown fields pass, a wrong shape in a field we
// use becomes a clear error naming the carrier instead of a silent gap.
import { z } from "zod";

const num = z.union([z.number(), z.string()]).transform((v) => Number(v));
const str = z.string().nullish();

// FedEx ---------------------------------------------------------------------------------------------------------------
const ZFedexLocation = z.looseObject({ city: str, stateOrProvinceCode: str, countryCode: str });
const ZFedexWindow = z.looseObject({ window: z.looseObject({ begins: str }).optional() });

export const ZFedexRateResponse = z.looseObject({
  output: z.looseObject({
    rateReplyDetails: z
      .array(
        z.looseObject({
          serviceType: z.string(),
          serviceName: str,
          commit: z
            .looseObject({
              guaranteedType: str,
              transitDays: z.looseObject({ minimumTransitTime: str, description: str }).optional(),
            })
            .optional(),
          operationalDetail: z
            .looseObject({ transitTime: str, ineligibleForMoneyBackGuarantee: z.boolean().optional() })
            .optional(),
          ratedShipmentDetails: z
            .array(
              z.looseObject({
                rateType: str,
                totalNetCharge: num.optional(),
                totalNetChargeWithDutiesAndTaxes: num.optional(),
                currency: str,
              }),
            )
            .default([]),
        }),
      )
      .default([]),
  }),
});

export const ZFedexTrackResponse = z.looseObject({
  output: z.looseObject({
    completeTrackResults: z
      .array(
        z.looseObject({
          trackResults: z
            .array(
              z.looseObject({
                error: z.looseObject({ code: str, message: str }).optional(),
                serviceDetail: z.looseObject({ description: str }).optional(),
                latestStatusDetail: z.looseObject({ code: str, scanLocation: ZFedexLocation.optional() }).optional(),
                dateAndTimes: z.array(z.looseObject({ type: z.string(), dateTime: z.string() })).default([]),
                standardTransitTimeWindow: ZFedexWindow.optional(),
                estimatedDeliveryTimeWindow: ZFedexWindow.optional(),
                scanEvents: z
                  .array(
                    z.looseObject({
                      date: z.string(),
                      eventType: str,
                      eventDescription: str,
                      exceptionDescription: str,
                      scanLocation: ZFedexLocation.optional(),
                    }),
                  )
                  .default([]),
              }),
            )
            .default([]),
        }),
      )
      .default([]),
  }),
});

// UPS -----------------------------------------------------------------------------------------------------------------
const ZUpsMoney = z.looseObject({ MonetaryValue: num, CurrencyCode: str });
const ZUpsRated = z.looseObject({
  Service: z.looseObject({ Code: z.string() }),
  TotalCharges: ZUpsMoney.optional(),
  TotalChargesWithTaxes: ZUpsMoney.optional(),
  TransportationCharges: ZUpsMoney.optional(),
  NegotiatedRateCharges: z
    .looseObject({ TotalCharge: ZUpsMoney.optional(), TotalChargesWithTaxes: ZUpsMoney.optional() })
    .optional(),
  GuaranteedDelivery: z.looseObject({ BusinessDaysInTransit: str }).optional(),
  TimeInTransit: z
    .looseObject({
      ServiceSummary: z
        .looseObject({
          Service: z.looseObject({ Description: str }).optional(),
          EstimatedArrival: z.looseObject({ BusinessDaysInTransit: str }).optional(),
          // An "empty tag": present (even as "") means guaranteed.
          GuaranteedIndicator: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});
export const ZUpsRateResponse = z.looseObject({
  RateResponse: z.looseObject({
    // One rated shipment comes as an object, several as a list.
    RatedShipment: z
      .union([z.array(ZUpsRated), ZUpsRated])
      .optional()
      .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  }),
});

const ZUpsStatus = z.looseObject({ type: str, code: str, description: str });
const ZUpsAddress = z.looseObject({ city: str, stateProvince: str, countryCode: str, country: str });
export const ZUpsTrackResponse = z.looseObject({
  trackResponse: z.looseObject({
    shipment: z
      .array(
        z.looseObject({
          warnings: z.array(z.looseObject({ code: str, message: str })).optional(),
          package: z
            .array(
              z.looseObject({
                currentStatus: ZUpsStatus.optional(),
                service: z.looseObject({ description: str }).optional(),
                deliveryDate: z.array(z.looseObject({ type: z.string(), date: z.string() })).default([]),
                deliveryTime: z.looseObject({ type: str, endTime: str }).optional(),
                activity: z
                  .array(
                    z.looseObject({
                      date: str,
                      time: str,
                      status: ZUpsStatus.optional(),
                      location: z.looseObject({ address: ZUpsAddress.optional() }).optional(),
                    }),
                  )
                  .default([]),
              }),
            )
            .optional(),
        }),
      )
      .default([]),
  }),
});

// USPS ----------------------------------------------------------------------------------------------------------------
export const ZUspsOptionsResponse = z.looseObject({
  pricingOptions: z
    .array(
      z.looseObject({
        shippingOptions: z
          .array(
            z.looseObject({
              mailClass: z.string(),
              rateOptions: z
                .array(
                  z.looseObject({
                    commitment: z.looseObject({ name: str, guaranteedDelivery: z.boolean().optional() }).optional(),
                    totalPrice: num.optional(),
                    totalBasePrice: num.optional(),
                    rates: z.array(z.looseObject({ productName: str })).default([]),
                  }),
                )
                .default([]),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

export const ZUspsTrackingResponse = z.looseObject({
  status: str,
  statusCategory: str,
  mailClass: str,
  expectedDeliveryTimeStamp: str,
  predictedDeliveryDate: str,
  guaranteedDeliveryTimeStamp: str,
  trackingEvents: z
    .array(
      z.looseObject({
        eventType: str,
        eventCode: str,
        eventTimestamp: str,
        GMTTimestamp: str,
        eventCity: str,
        eventState: str,
        eventCountry: str,
      }),
    )
    .default([]),
});
