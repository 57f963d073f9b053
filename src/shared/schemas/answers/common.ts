import { z } from "zod";
import { API_SCOPES } from "../../api-scopes";
import { EQUIPMENT_TYPES, LANGUAGE_CODES, MONEY_CURRENCY_CODES } from "../../constants";
import { CARRIERS } from "../../tracking-number";
import { MARKETPLACE_PROVIDERS } from "../boards";
import { DOCUMENT_TYPES } from "../documents";
import { LOAD_SIZES, LOAD_STATUSES } from "../loads";
import { BUDGET_MODES, ECOMMERCE_PLATFORMS, IMPORTABLE_STATUSES, ORDER_STATUSES } from "../stores";
import { ZVerifiedBadge } from "./verification";

export const ZBoardContact = z.object({
  company: z.string().nullable(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  mcNumber: z.string().nullable(),
});
export type TBoardContact = z.infer<typeof ZBoardContact>;
export const ZBoardAnswer = z.object({
  configId: z.number(),
  name: z.string(),
  provider: z.enum(MARKETPLACE_PROVIDERS),
  state: z.enum(["ok", "failed", "synced", "timeout", "no_location", "outside_area"]),
  count: z.number(),
  unreadable: z.number(),
  error: z.string().nullable(),
  sandbox: z.boolean(),
});
export type TBoardAnswer = z.infer<typeof ZBoardAnswer>;
export const ZLoadDocument = z.object({
  id: z.number(),
  loadId: z.number(),
  type: z.enum(DOCUMENT_TYPES),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number(),
  uploadedBy: z.number().nullable(),
  createdAt: z.string(),
  url: z.string(),
});
export type TLoadDocument = z.infer<typeof ZLoadDocument>;
export const ZPlace = z.object({
  city: z.string(),
  state: z.string().nullable(),
  country: z.string(),
  countryCode: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  population: z.number(),
});
export type TPlace = z.infer<typeof ZPlace>;
export const ZRateOption = z.object({
  carrier: z.enum(CARRIERS),
  serviceCode: z.string(),
  serviceName: z.string(),
  transitTime: z.string(),
  totalCost: z.number(),
  currency: z.string(),
  deliveryDays: z.number().nullable(),
  guaranteedDelivery: z.boolean(),
});
export type TRateOption = z.infer<typeof ZRateOption>;
export const ZTrackingStatus = z.enum(["unknown", "in_transit", "delivered", "pending", "exception"]);
export type TTrackingStatus = z.infer<typeof ZTrackingStatus>;
export const ZPlaceRef = z.object({
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
});
export type TPlaceRef = z.infer<typeof ZPlaceRef>;
export const ZTrackingResult = z.object({
  carrier: z.enum(CARRIERS),
  trackingNumber: z.string(),
  status: ZTrackingStatus,
  service: z.string().nullable(),
  currentLocation: ZPlaceRef.nullable(),
  estimatedDelivery: z.string().nullable(),
  actualDelivery: z.string().nullable(),
  events: z.array(
    z.object({
      description: z.string(),
      date: z.string(),
      location: ZPlaceRef.nullable().optional(),
      status: ZTrackingStatus,
    }),
  ),
});
export type TTrackingResult = z.infer<typeof ZTrackingResult>;
export const ZNotifierState = z.enum(["active", "sandbox", "not_configured"]);
export type TNotifierState = z.infer<typeof ZNotifierState>;
export const ZStoreSyncResult = z.object({
  created: z.number(),
  updated: z.number(),
  pages: z.number(),
  partial: z.boolean(),
  message: z.string(),
});
export type TStoreSyncResult = z.infer<typeof ZStoreSyncResult>;
export const ZPublicToken = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type TPublicToken = z.infer<typeof ZPublicToken>;
export const ZLoadSource = z.object({
  type: z.enum(["mytess", "external"]),
  provider: z.string().nullable(),
  configId: z.number().nullable(),
  externalId: z.string().nullable(),
  contact: ZBoardContact.nullable(),
});
export type TLoadSource = z.infer<typeof ZLoadSource>;
export const ZStoreIntegration = z.object({
  id: z.number(),
  platform: z.enum(ECOMMERCE_PLATFORMS),
  platformName: z.string(),
  name: z.string(),
  isActive: z.boolean(),
  credentials: z.record(z.string(), z.boolean()),
  settings: z.object({
    warehouse: z.object({
      address: z.string(),
      city: z.string(),
      state: z.string().nullable(),
      country: z.string(),
      latitude: z.number(),
      longitude: z.number(),
    }),
    defaultEquipmentType: z.enum(EQUIPMENT_TYPES),
    budget: z.object({ mode: z.enum(BUDGET_MODES), amount: z.number(), currency: z.enum(MONEY_CURRENCY_CODES) }),
    defaultWeightLbs: z.number(),
    pickupLeadDays: z.number(),
    importStatuses: z.array(z.enum(IMPORTABLE_STATUSES)),
    syncIntervalMinutes: z.number(),
    apiBaseUrl: z.string().nullable().optional(),
  }),
  sandbox: z.boolean(),
  totalOrdersSynced: z.number(),
  lastSyncAt: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type TStoreIntegration = z.infer<typeof ZStoreIntegration>;
export const ZStoreOrder = z.object({
  id: z.number(),
  integrationId: z.number(),
  integrationName: z.string().nullable(),
  orderNumber: z.string(),
  externalOrderId: z.string(),
  orderDate: z.string(),
  customerName: z.string().nullable(),
  shippingCity: z.string().nullable(),
  shippingState: z.string().nullable(),
  shippingCountry: z.string().nullable(),
  shippingPostalCode: z.string().nullable(),
  currency: z.string(),
  totalAmount: z.number(),
  status: z.enum(ORDER_STATUSES),
  storeStatus: z.string(),
  items: z.array(
    z.object({
      title: z.string(),
      quantity: z.number(),
      sku: z.string().nullable(),
      unitWeightGrams: z.number().nullable(),
    }),
  ),
  isConvertedToLoad: z.boolean(),
  loadId: z.number().nullable(),
});
export type TStoreOrder = z.infer<typeof ZStoreOrder>;
export const ZLane = z.object({
  id: z.number(),
  name: z.string().nullable(),
  originName: z.string(),
  originLatitude: z.number(),
  originLongitude: z.number(),
  originRadiusMiles: z.number(),
  destinationName: z.string().nullable(),
  destinationLatitude: z.number().nullable(),
  destinationLongitude: z.number().nullable(),
  destinationRadiusMiles: z.number().nullable(),
  equipmentTypes: z.array(z.enum(EQUIPMENT_TYPES)),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TLane = z.infer<typeof ZLane>;
export const ZBoardConfig = z.object({
  id: z.number(),
  provider: z.enum(MARKETPLACE_PROVIDERS),
  boardName: z.string(),
  name: z.string(),
  apiBaseUrl: z.string(),
  isActive: z.boolean(),
  syncEnabled: z.boolean(),
  syncIntervalMinutes: z.number(),
  rateLimitPerHour: z.number(),
  config: z.record(z.string(), z.boolean()),
  sandbox: z.boolean(),
  canSync: z.boolean(),
  lastSyncAt: z.string().nullable(),
  lastError: z.string().nullable(),
  connection: z.enum(["connected", "reconnect", "not_connected"]).nullable(),
  createdAt: z.string(),
});
export type TBoardConfig = z.infer<typeof ZBoardConfig>;
export const ZLoadBoardTag = z.object({
  configId: z.number(),
  name: z.string(),
  provider: z.enum(MARKETPLACE_PROVIDERS),
  boardName: z.string(),
  sandbox: z.boolean(),
  live: z.boolean(),
  poweredBy: z.string().nullable(),
});
export type TLoadBoardTag = z.infer<typeof ZLoadBoardTag>;
export const ZPushSettings = z.object({
  subscriptions: z.array(
    z.object({ endpoint: z.string(), expirationTime: z.number().nullable(), createdAt: z.string() }),
  ),
  enabled: z.boolean(),
  notificationTypes: z.object({
    loadAssigned: z.boolean(),
    loadUpdates: z.boolean(),
    paymentReceived: z.boolean(),
    systemAlerts: z.boolean(),
    marketing: z.boolean(),
  }),
  quietHours: z.object({ enabled: z.boolean(), start: z.string(), end: z.string(), timezone: z.string() }),
});
export type TPushSettings = z.infer<typeof ZPushSettings>;
export const ZMessage = z.object({
  id: z.number(),
  loadId: z.number(),
  driverId: z.number(),
  senderId: z.number(),
  fromMe: z.boolean(),
  body: z.string(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TMessage = z.infer<typeof ZMessage>;
export const ZShipment = z.object({
  id: z.number(),
  carrier: z.enum(CARRIERS),
  serviceCode: z.string(),
  serviceName: z.string(),
  totalCost: z.number(),
  currency: z.string(),
  deliveryDays: z.number().nullable(),
  guaranteedDelivery: z.boolean(),
  shipper: z.object({
    street1: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    countryCode: z.string(),
    name: z.string().optional(),
    company: z.string().optional(),
    street2: z.string().optional(),
    phone: z.string().optional(),
  }),
  recipient: z.object({
    street1: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    countryCode: z.string(),
    name: z.string().optional(),
    company: z.string().optional(),
    street2: z.string().optional(),
    phone: z.string().optional(),
  }),
  packages: z.array(
    z.object({
      weight: z.number(),
      weightUnit: z.enum(["LBS", "KG"]),
      dimensionUnit: z.enum(["IN", "CM"]),
      length: z.number().nullable().optional(),
      width: z.number().nullable().optional(),
      height: z.number().nullable().optional(),
      declaredValue: z.number().nullable().optional(),
      description: z.string().optional(),
    }),
  ),
  createdAt: z.string(),
});
export type TShipment = z.infer<typeof ZShipment>;
export const ZSubscription = z.object({
  subscriptionStatus: z.enum(["cancelled", "active", "expired"]),
  trialStatus: z.object({ isTrialActive: z.boolean(), trialEndsAt: z.string() }),
  currentPeriodEnd: z.string().nullable(),
  provider: z.enum(["stripe", "chapa", "grant"]).nullable(),
  cancelAtPeriodEnd: z.boolean(),
  refundable: z.boolean(),
  billingStartsAt: z.string().nullable(),
});
export type TSubscription = z.infer<typeof ZSubscription>;
export const ZDriverStats = z.object({
  rating: z.number(),
  totalRatings: z.number(),
  totalTrips: z.number(),
  monthlyEarnings: z.object({ amount: z.number(), currency: z.string() }),
  activeBids: z.number(),
  location: z.object({ latitude: z.number(), longitude: z.number(), updatedAt: z.string().nullable() }).nullable(),
  isAvailable: z.boolean(),
});
export type TDriverStats = z.infer<typeof ZDriverStats>;
export const ZLoadAlertSettings = z.object({
  enabled: z.boolean(),
  radiusMiles: z.number(),
  equipmentTypes: z.array(z.enum(EQUIPMENT_TYPES)),
  location: z.object({ latitude: z.number(), longitude: z.number(), updatedAt: z.string().nullable() }).nullable(),
});
export type TLoadAlertSettings = z.infer<typeof ZLoadAlertSettings>;
/** The truck a bid offers, as it was when the bid was placed. */
export const ZBidTruck = z.object({
  /** The driver's truck post, null once it is deleted (the rest stays: it is what the bid offered). */
  id: z.number().nullable(),
  equipmentType: z.enum(EQUIPMENT_TYPES),
  capacityLbs: z.number(),
  plate: z.string().nullable(),
});
export type TBidTruck = z.infer<typeof ZBidTruck>;
export const ZBid = z.object({
  id: z.number(),
  loadId: z.number(),
  driverId: z.number(),
  amount: z.number(),
  currency: z.string(),
  proposedPickupDate: z.string().nullable(),
  notes: z.string().nullable(),
  truck: ZBidTruck.nullable(),
  status: z.enum(["pending", "accepted", "rejected", "withdrawn"]),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TBid = z.infer<typeof ZBid>;
export const ZSuccessAnswer = z.object({ success: z.literal(true) });
export type TSuccessAnswer = z.infer<typeof ZSuccessAnswer>;
export const ZOkAnswer = z.object({ ok: z.literal(true) });
export type TOkAnswer = z.infer<typeof ZOkAnswer>;
export const ZCarrierState = ZNotifierState;
export type TCarrierState = z.infer<typeof ZCarrierState>;
export const ZLoad = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  pickupAddress: z.string(),
  pickupCity: z.string(),
  pickupState: z.string().nullable(),
  pickupCountry: z.string(),
  pickupLatitude: z.number(),
  pickupLongitude: z.number(),
  pickupLocation: z.string(),
  deliveryAddress: z.string(),
  deliveryCity: z.string(),
  deliveryState: z.string().nullable(),
  deliveryCountry: z.string(),
  deliveryLatitude: z.number(),
  deliveryLongitude: z.number(),
  deliveryLocation: z.string(),
  pickupDate: z.string(),
  deliveryDate: z.string(),
  weight: z.number(),
  equipmentType: z.string(),
  loadSize: z.enum(LOAD_SIZES),
  budgetAmount: z.number(),
  budgetCurrency: z.string(),
  rate: z.number(),
  currency: z.string(),
  tripMiles: z.number(),
  ratePerMile: z.number(),
  specialInstructions: z.string().nullable(),
  status: z.enum(LOAD_STATUSES),
  isUrgent: z.boolean(),
  distance: z.number().nullable(),
  source: ZLoadSource,
  shipperId: z.number().nullable(),
  /** The shipper company the load was posted for (its public profile), null when its shipper posted alone. */
  shipperCompanyId: z.number().nullable(),
  assignedDriverId: z.number().nullable(),
  createdAt: z.string(),
});
export type TLoad = z.infer<typeof ZLoad>;
export const ZMessagingSettings = z.object({
  whatsappEnabled: z.boolean(),
  whatsappNumber: z.string().nullable(),
  whatsappVerified: z.boolean(),
  telegramEnabled: z.boolean(),
  telegramChatId: z.string().nullable(),
  notificationTypes: z.object({
    systemAlerts: z.boolean(),
    loadAssigned: z.boolean(),
    loadUpdates: z.boolean(),
    paymentReceived: z.boolean(),
  }),
  language: z.enum(LANGUAGE_CODES),
  telegramLinkUrl: z.string().nullable(),
  telegramBlocked: z.boolean(),
  channels: z.object({ telegram: ZCarrierState, whatsapp: ZCarrierState }),
});
export type TMessagingSettings = z.infer<typeof ZMessagingSettings>;
/**
 * A MyTess load's shipper as drivers weigh it. A load posted for a shipper company (`kind` "company") shows the
 * company, with the figures of its public profile (`companyId` links it): its name, the rating its side received on
 * its loads and how many, its loads posted and completed, its pay speed, its badge (its owner's). A load posted alone
 * (`kind` "person") shows the person: first name and last initial, the account's rating and count, the loads they
 * posted and completed, their own badge and pay speed; `companyId` null. Verified null: never verified, or its
 * insurance lapsed. Pay speed: the median hours from delivery to the release of the money over the last 20 paid loads
 * (null with fewer than 3). Nothing that reaches a person (email, phone) is in it.
 */
export const ZBoardShipper = z.object({
  kind: z.enum(["company", "person"]),
  name: z.string(),
  companyId: z.number().nullable(),
  rating: z.number().nullable(),
  ratings: z.number(),
  loadsPosted: z.number(),
  completed: z.number(),
  verified: ZVerifiedBadge.nullable(),
  paysInHours: z.number().nullable(),
});
export type TBoardShipper = z.infer<typeof ZBoardShipper>;
/**
 * A bid's carrier. A bid made for a carrier company (an owner's or dispatcher's; `kind` "company") shows the company:
 * its name and id (its profile), its badge, and the figures of its profile (the rating its drivers received on its
 * trips and how many, its completed trips). A driver's own bid (`kind` "person"): no company, the driver's own badge,
 * rating and completed trips.
 */
export const ZBidCarrier = z.object({
  kind: z.enum(["company", "person"]),
  companyId: z.number().nullable(),
  companyName: z.string().nullable(),
  verified: ZVerifiedBadge.nullable(),
  rating: z.number().nullable(),
  ratings: z.number(),
  trips: z.number(),
});
export type TBidCarrier = z.infer<typeof ZBidCarrier>;
/** Whether the signed-in driver was invited to bid on the load by its shipper (their own invitations only). */
export const ZInvitedToBid = z.boolean().meta({
  description:
    "True when the load's shipper invited the signed-in caller (a driver, through one of their trucks) to bid on it; " +
    "false otherwise and for outside boards' loads. Other drivers' invitations are never shown.",
});
export const ZBoardPage = z.object({
  page: z.number(),
  pageSize: z.number(),
  hasMore: z.boolean(),
  items: z.array(
    ZLoad.extend({
      board: ZLoadBoardTag.nullable(),
      shipper: ZBoardShipper.nullable(),
      invited: ZInvitedToBid,
    }),
  ),
  boards: z.array(ZBoardAnswer),
});
export type TBoardPage = z.infer<typeof ZBoardPage>;
