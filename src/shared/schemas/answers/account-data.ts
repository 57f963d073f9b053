import { z } from "zod";

// The account's data as the owner downloads it (GET /api/user/export): their own rows, secrets left out (listed in
// `omitted`). Times are ISO 8601; money is integer minor units beside its ISO currency.

const ZIso = z.string();
const ZIsoOrNull = z.string().nullable();

export const ZExportProfile = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  emailVerifiedAt: ZIsoOrNull,
  phone: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  userType: z.string(),
  signInWith: z.array(z.enum(["password", "phone", "oidc"])),
  createdAt: ZIso,
  location: z.object({ latitude: z.number(), longitude: z.number(), updatedAt: ZIsoOrNull }).nullable(),
  rating: z.object({ sum: z.number().int(), count: z.number().int(), trips: z.number().int() }),
  premium: z.object({
    trialEndsAt: ZIso,
    paidUntil: ZIsoOrNull,
    cancelledAt: ZIsoOrNull,
    provider: z.string().nullable(),
  }),
});

export const ZExportSettings = z.object({
  currency: z.string(),
  language: z.string(),
  calendar: z.string(),
  ethiopianTime: z.boolean(),
  units: z.string(),
  isAvailable: z.boolean(),
  push: z.record(z.string(), z.union([z.string(), z.boolean(), z.number()])).nullable(),
  messaging: z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()])).nullable(),
});

const ZExportLoad = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  status: z.string(),
  pickup: z.object({ address: z.string(), city: z.string(), country: z.string(), date: ZIso }),
  delivery: z.object({ address: z.string(), city: z.string(), country: z.string(), date: ZIso }),
  weightLbs: z.number(),
  equipmentType: z.string(),
  budgetMinor: z.number().int(),
  budgetCurrency: z.string(),
  agreedAmountMinor: z.number().int().nullable(),
  agreedCurrency: z.string().nullable(),
  specialInstructions: z.string().nullable(),
  createdAt: ZIso,
  completedAt: ZIsoOrNull,
  cancelledAt: ZIsoOrNull,
});

const ZExportBid = z.object({
  id: z.number().int(),
  loadId: z.number().int(),
  /** The carrier company the bid was placed for, or null for a bid of one's own. */
  companyId: z.number().int().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: z.string(),
  notes: z.string().nullable(),
  /** The truck the bid offered, as copied when it was placed (the post itself may since be gone). */
  truck: z
    .object({
      id: z.number().int().nullable(),
      equipmentType: z.string().nullable(),
      capacityLbs: z.number().nullable(),
      plate: z.string().nullable(),
    })
    .nullable(),
  createdAt: ZIso,
});

const ZExportPlace = z.object({ name: z.string(), latitude: z.number(), longitude: z.number() });

const ZExportTruck = z.object({
  id: z.number().int(),
  origin: ZExportPlace,
  destination: ZExportPlace.extend({ radiusMiles: z.number().int().nullable() }).nullable(),
  availableStart: ZIso,
  availableEnd: ZIso,
  equipmentType: z.string(),
  capacityLbs: z.number(),
  lengthFt: z.number().nullable(),
  plate: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: ZIso,
});

const ZExportSavedLane = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  origin: ZExportPlace.extend({ radiusMiles: z.number().int() }),
  destination: ZExportPlace.extend({ radiusMiles: z.number().int().nullable() }).nullable(),
  equipmentTypes: z.array(z.string()),
  createdAt: ZIso,
});

const ZExportMessage = z.object({
  id: z.number().int(),
  loadId: z.number().int(),
  sentByMe: z.boolean(),
  body: z.string(),
  readAt: ZIsoOrNull,
  createdAt: ZIso,
});

const ZExportNotification = z.object({
  id: z.number().int(),
  type: z.string(),
  title: z.string(),
  body: z.string(),
  channel: z.string(),
  status: z.string(),
  loadId: z.number().int().nullable(),
  readAt: ZIsoOrNull,
  createdAt: ZIso,
});

const ZExportDocument = z.object({
  id: z.number().int(),
  loadId: z.number().int(),
  type: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  createdAt: ZIso,
});

const ZExportPayment = z.object({
  id: z.number().int(),
  provider: z.string(),
  status: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  months: z.number().int(),
  periodStart: ZIsoOrNull,
  periodEnd: ZIsoOrNull,
  createdAt: ZIso,
});

const ZExportFreightPayment = z.object({
  id: z.number().int(),
  loadId: z.number().int(),
  role: z.enum(["shipper", "driver"]),
  provider: z.string(),
  state: z.string(),
  currency: z.string(),
  agreedMinor: z.number().int(),
  feeMinor: z.number().int(),
  createdAt: ZIso,
});

const ZExportPayoutMethod = z.object({
  provider: z.string(),
  bankName: z.string().nullable(),
  mobileMoney: z.boolean(),
  /** Only the last four digits, e.g. "•••• 1234". */
  accountNumber: z.string().nullable(),
  accountName: z.string().nullable(),
  payoutsEnabled: z.boolean(),
  createdAt: ZIso,
});

const ZExportRating = z.object({
  loadId: z.number().int(),
  score: z.number().int(),
  createdAt: ZIso,
});

const ZExportVerification = z.object({
  id: z.number().int(),
  status: z.string(),
  country: z.string(),
  tradeLicenceNumber: z.string().nullable(),
  tin: z.string().nullable(),
  mcNumber: z.string().nullable(),
  dotNumber: z.string().nullable(),
  insuranceExpiresOn: z.string().nullable(),
  reason: z.string().nullable(),
  reviewedAt: ZIsoOrNull,
  createdAt: ZIso,
  files: z.array(z.object({ kind: z.string(), fileName: z.string(), contentType: z.string(), size: z.number() })),
});

const ZExportSavedSearch = z.object({
  id: z.number().int(),
  name: z.string(),
  params: z.unknown(),
  originName: z.string().nullable(),
  destinationName: z.string().nullable(),
  createdAt: ZIso,
});

export const ZAccountExport = z.object({
  format: z.literal("mytess-export/1"),
  exportedAt: ZIso,
  profile: ZExportProfile,
  settings: ZExportSettings,
  loadsPosted: z.array(ZExportLoad),
  tripsDriven: z.array(ZExportLoad),
  bids: z.array(ZExportBid),
  messages: z.array(ZExportMessage),
  notifications: z.array(ZExportNotification),
  documents: z.array(ZExportDocument),
  payments: z.array(ZExportPayment),
  freightPayments: z.array(ZExportFreightPayment),
  payoutMethods: z.array(ZExportPayoutMethod),
  ratingsGiven: z.array(ZExportRating),
  ratingsReceived: z.array(ZExportRating),
  verifications: z.array(ZExportVerification),
  savedSearches: z.array(ZExportSavedSearch),
  /** Truck posts (drivers): where and when each truck is free, its type, capacity and plate. */
  trucks: z.array(ZExportTruck),
  /** Invitations to bid that named one of the account's trucks (as driver) or loads (as shipper): ids only. */
  truckInvitations: z.array(
    z.object({
      truckId: z.number().int(),
      loadId: z.number().int(),
      role: z.enum(["shipper", "driver"]),
      createdAt: ZIso,
    }),
  ),
  savedLanes: z.array(ZExportSavedLane),
  /** The company the account belongs to, and as what; its other members are not the account's data. */
  company: z
    .object({
      id: z.number().int(),
      name: z.string(),
      kind: z.string(),
      country: z.string(),
      role: z.string(),
      joinedAt: ZIso,
    })
    .nullable(),
  /** Online stores and load boards connected (their credentials stay out). */
  storeConnections: z.array(
    z.object({
      platform: z.string(),
      name: z.string(),
      isActive: z.boolean(),
      totalOrdersSynced: z.number().int(),
      lastSyncAt: ZIsoOrNull,
      createdAt: ZIso,
    }),
  ),
  loadBoardConnections: z.array(
    z.object({
      provider: z.string(),
      name: z.string(),
      isActive: z.boolean(),
      lastSyncAt: ZIsoOrNull,
      createdAt: ZIso,
    }),
  ),
  sessions: z.array(z.object({ createdAt: ZIso, lastSeenAt: ZIso, userAgent: z.string().nullable() })),
  apiTokens: z.array(
    z.object({ name: z.string(), scopes: z.array(z.string()), createdAt: ZIso, lastUsedAt: ZIsoOrNull }),
  ),
  webhookEndpoints: z.array(z.object({ url: z.string(), events: z.array(z.string()), createdAt: ZIso })),
  /** What the file leaves out on purpose, and why. */
  omitted: z.array(z.string()),
});
export type TAccountExport = z.infer<typeof ZAccountExport>;
