import { Command } from "commander";
import { z } from "zod";
import { CARRIERS } from "../../src/shared/tracking-number";
import { CliError, cliDate, i18n, openSystem } from "../context";

const ZCarrierOption = z.enum(CARRIERS).optional();
const carrierOption = (v: string | undefined) => {
  const parsed = ZCarrierOption.safeParse(v?.toLowerCase());
  if (!parsed.success)
    throw new CliError(i18n._({ id: "cli.carrier.invalid", message: "--carrier must be fedex, ups or usps" }));
  return parsed.data;
};

export const track = new Command("track")
  .description("Track a parcel with FedEx, UPS or USPS")
  .argument("<number>", "tracking number")
  .option("--carrier <carrier>", "fedex, ups or usps (detected from the number when left out)")
  .option("--json", "print JSON")
  .action(async (number: string, o: { carrier?: string; json?: boolean }) => {
    const { caller, handle } = await openSystem();
    try {
      const { tracking: t } = await caller.shipping.track({
        trackingNumber: number,
        carrier: carrierOption(o.carrier),
      });
      if (o.json) {
        console.log(JSON.stringify(t, null, 2));
        return;
      }
      console.log(`${t.carrier.toUpperCase()} ${t.trackingNumber}: ${t.status}${t.service ? ` (${t.service})` : ""}`);
      if (t.actualDelivery)
        console.log(
          i18n._({
            id: "cli.track.delivered",
            comment: "Operator CLI parcel tracking: the parcel was delivered on {date}",
            message: "Delivered {date}",
            values: { date: cliDate(t.actualDelivery, true) },
          }),
        );
      else if (t.estimatedDelivery)
        console.log(
          i18n._({
            id: "cli.track.estimated",
            comment: "Operator CLI parcel tracking: the date the carrier expects to deliver",
            message: "Estimated delivery {date}",
            values: { date: cliDate(t.estimatedDelivery) },
          }),
        );
      for (const e of t.events) {
        const place = [e.location?.city, e.location?.state, e.location?.country].filter(Boolean).join(", ");
        console.log(`  ${cliDate(e.date, true)}  ${e.description}${place ? `  ${place}` : ""}`);
      }
    } finally {
      await handle.close();
    }
  });

export const rates = new Command("rates")
  .description("Compare parcel rates between two US ZIP codes")
  .requiredOption("--from-zip <zip>", "origin ZIP code")
  .requiredOption("--to-zip <zip>", "destination ZIP code")
  .requiredOption("--weight <lbs>", "package weight in pounds")
  .option("--carrier <carrier>", "fedex, ups or usps (all when left out)")
  .option("--json", "print JSON")
  .action(async (o: { fromZip: string; toZip: string; weight: string; carrier?: string; json?: boolean }) => {
    const weight = Number(o.weight);
    if (!Number.isFinite(weight))
      throw new CliError(i18n._({ id: "cli.rates.weight", message: "--weight must be a number of pounds" }));
    const { caller, handle } = await openSystem();
    try {
      // The CLI asks by ZIP code; the carriers want an address line, city and state, which do not change the price here.
      const place = (zip: string) => ({
        street1: "Address on file",
        city: "ZIP",
        state: "US",
        postalCode: zip,
        countryCode: "US",
      });
      const result = await caller.shipping.rates({
        shipper: place(o.fromZip),
        recipient: place(o.toZip),
        packages: [{ weight, weightUnit: "LBS", dimensionUnit: "IN" }],
        carrier: carrierOption(o.carrier),
      });
      if (o.json) {
        console.log(JSON.stringify(result, null, 2));
        return;
      }
      for (const r of result.rates) {
        console.log(
          `${r.carrier.toUpperCase().padEnd(6)} ${r.serviceName.padEnd(30)} ${`${r.totalCost.toFixed(2)} ${r.currency}`.padStart(12)}  ${r.transitTime}${r.guaranteedDelivery ? " *" : ""}`,
        );
      }
      if (!result.rates.length)
        console.log(
          i18n._({
            id: "cli.rates.none",
            comment: "Operator CLI: no carrier returned a parcel price",
            message: "No rates.",
          }),
        );
      for (const e of result.errors) console.error(`${e.carrier}: ${e.message}`);
    } finally {
      await handle.close();
    }
  });
