import { z } from "zod";
import { zText } from "./text";

/** Driver payouts: where a driver's share is sent (Stripe Connect for USD and EUR, Chapa for birr). */

/** A bank or mobile-money wallet Chapa can send birr to, as its list names it (`id` is Chapa's bank code). */
export const ZPayoutBank = z.object({
  id: z.number(),
  name: z.string(),
  mobileMoney: z.boolean(),
  /** How many digits its account numbers (a wallet's: the phone number) have, when Chapa says. */
  acctLength: z.number().nullable(),
});
export type TPayoutBank = z.infer<typeof ZPayoutBank>;

export const ZPayoutSetup = z.object({
  stripe: z.object({
    /** Whether Stripe is configured on this server (and labelled Sandbox when it is the emulator). */
    state: z.enum(["active", "sandbox", "not_configured"]),
    account: z
      .object({
        id: z.string(),
        payoutsEnabled: z.boolean(),
        detailsSubmitted: z.boolean(),
        /** What Stripe still asks for before it pays out (its requirement names). */
        requirementsDue: z.array(z.string()),
      })
      .nullable(),
  }),
  chapa: z.object({
    state: z.enum(["active", "sandbox", "not_configured"]),
    method: z
      .object({
        bankCode: z.number(),
        bankName: z.string(),
        mobileMoney: z.boolean(),
        /** Only the last 4 digits of the account or wallet number, e.g. "•••• 1234" (not even its length). */
        accountNumber: z.string(),
        accountName: z.string(),
      })
      .nullable(),
  }),
});
export type TPayoutSetup = z.infer<typeof ZPayoutSetup>;

export const ZStartStripePayoutsInput = z
  .object({
    /** The driver's country, two letters (ISO 3166-1), for the Connect account; US unless said. */
    country: zText({ error: "country must be two letters" })
      .regex(/^[A-Za-z]{2}$/, { error: "country must be two letters" })
      .optional(),
  })
  .optional();
export const ZStartStripePayoutsResult = z.object({ url: z.string(), accountId: z.string() });

export const ZSaveChapaMethodInput = z.object({
  bankCode: z.number({ error: "bankCode must be a bank's id from the list" }).int().positive(),
  accountNumber: zText({ error: "accountNumber is required" })
    .trim()
    .regex(/^\d{6,20}$/, { error: "accountNumber must be 6 to 20 digits" }),
  accountName: zText({ error: "accountName is required" })
    .trim()
    .min(3, { error: "accountName must be the account holder's full name" })
    .max(100, { error: "accountName must be at most 100 characters" }),
  /** The driver confirmed that the name is exactly the account holder's: a transfer to a wrong name fails. */
  accountNameConfirmed: z.literal(true, { error: "accountNameConfirmed: confirm the account holder's name" }),
});
export type TSaveChapaMethodInput = z.infer<typeof ZSaveChapaMethodInput>;
