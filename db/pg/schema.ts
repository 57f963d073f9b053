import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// The PostgreSQL schema: the same tables and columns as db/schema.ts (SQLite), so domain code and `mytess db copy` see one
// shape. Times are epoch milliseconds (UTC) in bigint; money is integer minor units (bigint) beside an ISO code; SQLite
// REAL is double precision; its 0/1 booleans are boolean; its JSON text is jsonb. Ids are identities that also accept
// explicit values (a copy from SQLite keeps them).

/** Epoch milliseconds. */
const ms = () => bigint({ mode: "number" });

const NOW_MS = sql`(extract(epoch from now()) * 1000)::bigint`;
const timestamps = {
  createdAt: ms().notNull().default(NOW_MS),
  updatedAt: ms().notNull().default(NOW_MS),
};
const id = () => integer().primaryKey().generatedByDefaultAsIdentity();

export const users = pgTable(
  "users",
  {
    id: id(),
    // Null for an account made with a phone number only (drivers without email); unique among the rest.
    email: text(),
    passwordHash: text(),
    // When the email was proven by a link sent to it; null until then (the account works meanwhile).
    emailVerifiedAt: ms(),
    // E.164, proven by a code sent to it (unique across accounts); null until one is added.
    phone: text(),
    oidcIssuer: text(),
    oidcSubject: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    profileImageUrl: text(),
    userType: text({ enum: ["driver", "shipper"] }).notNull(),
    currency: text().notNull().default("USD"),
    language: text().notNull().default("en"),
    // Dates in the Gregorian or the Ethiopian calendar, and the Ethiopian time of day beside the clock.
    calendar: text().notNull().default("gregorian"),
    ethiopianTime: boolean().notNull().default(false),
    // Distances and weights shown in kilometres and kilograms (metric) or miles and pounds (imperial); stored values
    // stay in miles and pounds.
    units: text({ enum: ["metric", "imperial"] })
      .notNull()
      .default("imperial"),
    ratingSum: integer().notNull().default(0),
    totalRatings: integer().notNull().default(0),
    totalTrips: integer().notNull().default(0),
    // Premium: a trial that ends at trialEndsAt, a paid period that ends at paidUntil, or an explicit cancellation.
    trialEndsAt: ms().notNull(),
    paidUntil: ms(),
    subscriptionCancelledAt: ms(),
    // Billing: who collects (stripe, chapa, or a support grant), the Stripe customer and subscription, whether the paid
    // period ends without renewal, the first payment (for the 30-day refund), the newest subscription event applied
    // (older ones arriving late change nothing) and the period end a renewal reminder was sent for.
    billingProvider: text(),
    stripeCustomerId: text(),
    stripeSubscriptionId: text(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    firstPaidAt: ms(),
    billingEventAt: ms(),
    reminderSentFor: ms(),
    // Drivers: last reported position and availability.
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    locationUpdatedAt: ms(),
    isAvailable: boolean().notNull().default(true),
    // When the owner deleted the account: the row stays, anonymised, for the other party of its trips, ratings and
    // payments (docs/security.md, "Account deletion").
    deletedAt: ms(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_idx").on(t.email),
    uniqueIndex("users_phone_idx").on(t.phone),
    uniqueIndex("users_oidc_idx").on(t.oidcIssuer, t.oidcSubject),
    index("users_type_idx").on(t.userType),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    // SHA-256 of the 256-bit token in the cookie: a stolen database does not yield live sessions.
    idHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: ms().notNull(),
    lastSeenAt: ms().notNull(),
    userAgent: text(),
    createdAt: ms().notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const fxRates = pgTable("fx_rates", {
  currency: text().primaryKey(),
  name: text().notNull(),
  symbol: text().notNull(),
  // Units of this currency per 1 USD.
  ratePerUsd: doublePrecision().notNull(),
  locale: text().notNull(),
  updatedAt: ms().notNull(),
  rateDate: text(),
  source: text({ enum: ["seed", "source", "operator"] })
    .notNull()
    .default("seed"),
});

export const fxRateHistory = pgTable(
  "fx_rate_history",
  {
    id: id(),
    currency: text().notNull(),
    day: text().notNull(),
    ratePerUsd: doublePrecision().notNull(),
    source: text({ enum: ["source", "operator"] }).notNull(),
    validUntil: text(),
    createdAt: ms().notNull(),
  },
  (t) => [uniqueIndex("fx_rate_history_currency_day_source_idx").on(t.currency, t.day, t.source)],
);

export const loads = pgTable(
  "loads",
  {
    id: id(),
    shipperId: integer().references(() => users.id, { onDelete: "cascade" }),
    title: text().notNull(),
    description: text(),
    pickupAddress: text().notNull(),
    pickupCity: text().notNull(),
    pickupState: text(),
    pickupCountry: text().notNull(),
    // The pickup country's ISO 3166-1 alpha-2 code (from the spelling or the gazetteer), null when neither knows it:
    // queries by country compare it, never the words (src/shared/countries.ts).
    pickupCountryCode: text(),
    pickupLatitude: doublePrecision().notNull(),
    pickupLongitude: doublePrecision().notNull(),
    deliveryAddress: text().notNull(),
    deliveryCity: text().notNull(),
    deliveryState: text(),
    deliveryCountry: text().notNull(),
    deliveryLatitude: doublePrecision().notNull(),
    deliveryLongitude: doublePrecision().notNull(),
    pickupDate: ms().notNull(),
    deliveryDate: ms().notNull(),
    weightLbs: doublePrecision().notNull(),
    equipmentType: text().notNull(),
    budgetMinor: bigint({ mode: "number" }).notNull(),
    budgetCurrency: text().notNull().default("USD"),
    // Full truckload (the trailer is the load's) or partial (LTL: shares the trailer); older loads are full.
    loadSize: text({ enum: ["full", "partial"] })
      .notNull()
      .default("full"),
    // Great-circle miles from pickup to delivery, computed once at insert.
    tripMiles: doublePrecision().notNull(),
    specialInstructions: text(),
    status: text({ enum: ["posted", "assigned", "in_transit", "delivered", "disputed", "completed", "cancelled"] })
      .notNull()
      .default("posted"),
    sourceType: text({ enum: ["mytess", "external"] })
      .notNull()
      .default("mytess"),
    sourceProvider: text(),
    sourceExternalId: text(),
    // An external load synced from a user's own board configuration: it belongs to that user alone (board
    // subscriptions are personal), carries the poster's contact as the board gives it (JSON) and when sync last saw it.
    sourceConfigId: integer().references(() => marketplaceConfigs.id, { onDelete: "cascade" }),
    sourceOwnerId: integer().references(() => users.id, { onDelete: "cascade" }),
    sourceContact: text(),
    sourceHash: text(),
    sourceSeenAt: ms(),
    assignedDriverId: integer().references(() => users.id, { onDelete: "set null" }),
    acceptedBidId: integer(),
    // The carrier company the load was awarded to (the accepted bid's), whose owners and dispatchers assign its driver.
    carrierCompanyId: integer(),
    // The shipper company the poster belonged to when posting: its owners and staff act for the load as the poster does.
    shipperCompanyId: integer(),
    // What the award agreed: the accepted bid's amount, or the accepted counter-offer's. Trips and payments read it
    // here (docs/design-notes.md, "Counter-offers and the agreed amount"); null until the load is awarded.
    agreedAmountMinor: bigint({ mode: "number" }),
    agreedCurrency: text(),
    cancelledById: integer(),
    cancelReason: text(),
    cancelledAt: ms(),
    pickedUpAt: ms(),
    deliveredAt: ms(),
    completedAt: ms(),
    // When the trip's track was cut down to its outline, 90 days after the trip ended (docs/design-notes.md).
    trackPrunedAt: ms(),
    ...timestamps,
  },
  (t) => [
    index("loads_status_pickup_idx").on(t.status, t.pickupDate),
    index("loads_shipper_idx").on(t.shipperId),
    index("loads_shipper_company_idx").on(t.shipperCompanyId),
    index("loads_driver_idx").on(t.assignedDriverId),
    uniqueIndex("loads_source_idx").on(t.sourceConfigId, t.sourceExternalId),
    // The landing page's "loads in your country first": posted loads of one pickup country, newest first.
    index("loads_status_country_created_idx").on(t.status, t.pickupCountryCode, t.createdAt),
  ],
);

export const bids = pgTable(
  "bids",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    driverId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The carrier company an owner or dispatcher bid for; null for a bid of one's own.
    companyId: integer(),
    // The bidder's truck the bid offers, if it names one. Its equipment type, capacity and plate are copied when the bid
    // is placed: the shipper accepted that truck, and the award must still show it after the driver deletes the post
    // or housekeeping removes it.
    truckId: integer().references(() => trucks.id, { onDelete: "set null" }),
    truckEquipmentType: text(),
    truckCapacityLbs: doublePrecision(),
    truckPlate: text(),
    amountMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull().default("USD"),
    proposedPickupDate: ms(),
    notes: text(),
    status: text({ enum: ["pending", "accepted", "rejected", "withdrawn"] })
      .notNull()
      .default("pending"),
    ...timestamps,
  },
  (t) => [
    index("bids_load_idx").on(t.loadId, t.status),
    index("bids_driver_idx").on(t.driverId, t.status),
    // One pending bid per driver and load: a new bid replaces the old one.
    uniqueIndex("bids_one_pending_idx").on(t.loadId, t.driverId).where(sql`status = 'pending'`),
  ],
);

// Counter-offers on a bid, oldest first: the shipper answers a pending bid with an amount, the driver accepts it,
// declines it or counters back, and so on. One offer is open at a time per bid (the side that has not made it
// answers), so "at most one open offer per side" holds by construction and the partial unique index keeps it.
export const bidCounters = pgTable(
  "bid_counters",
  {
    id: id(),
    bidId: integer()
      .notNull()
      .references(() => bids.id, { onDelete: "cascade" }),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    side: text({ enum: ["shipper", "driver"] }).notNull(),
    authorId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    // open: waiting for the other side; accepted (the load awarded at it); declined; countered (answered with a
    // counter); closed (the bid stopped being pending: changed, withdrawn, rejected, accepted as bid, load awarded
    // to another bid or cancelled).
    status: text({ enum: ["open", "accepted", "declined", "countered", "closed"] })
      .notNull()
      .default("open"),
    createdAt: ms().notNull(),
    answeredAt: ms(),
  },
  (t) => [
    index("bid_counters_bid_idx").on(t.bidId, t.id),
    uniqueIndex("bid_counters_one_open_idx").on(t.bidId).where(sql`status = 'open'`),
  ],
);

export type BidCounter = typeof bidCounters.$inferSelect;

export type User = typeof users.$inferSelect;
export type Load = typeof loads.$inferSelect;
export type NewLoad = typeof loads.$inferInsert;
export type Bid = typeof bids.$inferSelect;

/** A conversation line between a load's shipper and one driver who bid on it. */
export const messages = pgTable(
  "messages",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    // The driver side of the conversation (the shipper side is the load's shipper).
    driverId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    senderId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text().notNull(),
    readAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [index("messages_conversation_idx").on(t.loadId, t.driverId, t.id)],
);

/**
 * The trip's track: positions the assigned driver reported (the app, a Telegram live location, or the driver's own
 * position update) between the award and the delivery. A point is stored once per load and time, so a batch the
 * offline queue sends again, or a Telegram edit repeating a point, adds nothing.
 */
export const tripPoints = pgTable(
  "trip_points",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    recordedAt: ms().notNull(),
    // What the device said of the fix, when it said it: metres, metres per second, degrees from north.
    accuracy: doublePrecision(),
    speed: doublePrecision(),
    heading: doublePrecision(),
  },
  (t) => [uniqueIndex("trip_points_load_time_idx").on(t.loadId, t.recordedAt)],
);

/**
 * What the tracking noticed on a trip and told the shipper: the driver arrived at the pickup or the delivery point
 * (once each), or the ETA passed the delivery date (`etaAt`: the ETA told; told again only when it slips another hour).
 */
export const tripAlerts = pgTable(
  "trip_alerts",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    kind: text({ enum: ["arrived_pickup", "arrived_delivery", "delayed"] }).notNull(),
    etaAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    index("trip_alerts_load_idx").on(t.loadId, t.createdAt),
    uniqueIndex("trip_alerts_arrival_idx").on(t.loadId, t.kind).where(sql`kind <> 'delayed'`),
  ],
);

/** The consignee's tracking link of a load (see db/schema.ts). */
export const trackingLinks = pgTable("tracking_links", {
  id: id(),
  loadId: integer()
    .notNull()
    .unique()
    .references(() => loads.id, { onDelete: "cascade" }),
  tokenHash: text().notNull().unique(),
  createdAt: ms().notNull(),
});

/** A load's trip after the award, one row per step (see db/schema.ts). */
export const tripEvents = pgTable(
  "trip_events",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    kind: text({
      enum: [
        "awarded",
        "rate_confirmation_accepted",
        "picked_up",
        "delivered",
        "pod_accepted",
        "disputed",
        "completed",
        "edited",
      ],
    }).notNull(),
    actorId: integer().references(() => users.id, { onDelete: "set null" }),
    detail: jsonb().$type<Record<string, unknown>>(),
    createdAt: ms().notNull(),
  },
  (t) => [index("trip_events_load_idx").on(t.loadId, t.id)],
);

/** Files of a load (see db/schema.ts). */
export const loadDocuments = pgTable(
  "load_documents",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    uploaderId: integer().references(() => users.id, { onDelete: "set null" }),
    type: text({ enum: ["bol", "pod", "photo", "other"] }).notNull(),
    fileName: text().notNull(),
    contentType: text().notNull(),
    size: integer().notNull(),
    storageKey: text().notNull(),
    // The uploader's Idempotency-Key: a phone that lost the answer sends the file again and gets the same document.
    clientKey: text(),
    createdAt: ms().notNull(),
  },
  (t) => [
    index("load_documents_load_idx").on(t.loadId, t.id),
    uniqueIndex("load_documents_client_key_idx").on(t.uploaderId, t.clientKey),
  ],
);

/** One rating per side per completed load. */
export const ratings = pgTable(
  "ratings",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    raterId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rateeId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    score: integer().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [uniqueIndex("ratings_once_idx").on(t.loadId, t.raterId)],
);

/** What happened, one row per user who should see it in their activity feed. */
export const activityEvents = pgTable(
  "activity_events",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text({
      enum: [
        "load_posted",
        "bid_placed",
        "bid_received",
        "bid_accepted",
        "bid_rejected",
        "bid_withdrawn",
        "load_picked_up",
        "load_delivered",
        "load_completed",
        "load_cancelled",
        "rated",
      ],
    }).notNull(),
    loadId: integer().references(() => loads.id, { onDelete: "cascade" }),
    actorId: integer().references(() => users.id, { onDelete: "set null" }),
    createdAt: ms().notNull(),
  },
  (t) => [index("activity_user_idx").on(t.userId, t.id)],
);

export type Message = typeof messages.$inferSelect;
export type ActivityEvent = typeof activityEvents.$inferSelect;

/** Failed sign-ins, by account ("a:<email>") and by client address ("i:<ip>"), shared by every server process. */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: id(),
    key: text().notNull(),
    at: ms().notNull(),
  },
  (t) => [index("login_failures_key_idx").on(t.key, t.at)],
);

/**
 * A link mailed to prove an email address: the one an account signed up with, or one added to an account made with a
 * phone number. Only the token's SHA-256 is kept; a link works once, until it expires.
 */
export const emailVerifications = pgTable(
  "email_verifications",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text().notNull(),
    jobKey: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: ms().notNull(),
    usedAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("email_verifications_job_idx").on(t.jobKey),
    uniqueIndex("email_verifications_token_idx").on(t.tokenHash),
    index("email_verifications_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Password reset links sent by mail: the SHA-256 of the token (never the token), one row per reset mail (its job's
 * key, so a retried send finds the row it made), single use (`usedAt`), 30 minutes.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    jobKey: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: ms().notNull(),
    usedAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("password_resets_job_idx").on(t.jobKey),
    uniqueIndex("password_resets_token_idx").on(t.tokenHash),
    index("password_resets_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * One-time codes sent by SMS (password reset, proving a number added to an account): one row per SMS job (its key, so
 * a retried send finds the row it made and sends nothing once `sentAt` is set), the code only as an HMAC with the
 * server key, single use, 30 minutes, at most 5 tries counted before each comparison. Rows also count the sends per
 * number per hour and per deployment per day.
 */
export const phoneCodes = pgTable(
  "phone_codes",
  {
    id: id(),
    phone: text().notNull(),
    purpose: text({ enum: ["reset", "add_phone", "signin", "delete_account"] }).notNull(),
    userId: integer().references(() => users.id, { onDelete: "cascade" }),
    jobKey: text().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    expiresAt: ms().notNull(),
    usedAt: ms(),
    sentAt: ms(),
    provider: text(),
    providerMessageId: text(),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("phone_codes_job_idx").on(t.jobKey),
    index("phone_codes_phone_idx").on(t.phone, t.createdAt),
    index("phone_codes_created_idx").on(t.createdAt),
  ],
);

/** A parcel quote a user chose ("Select This Service"), kept with its addresses and packages. */
export const shipments = pgTable(
  "shipments",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    carrier: text().notNull(),
    serviceCode: text().notNull(),
    serviceName: text().notNull(),
    totalCostMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    deliveryDays: integer(),
    guaranteedDelivery: boolean().notNull(),
    shipper: jsonb().notNull(),
    recipient: jsonb().notNull(),
    packages: jsonb().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [index("shipments_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Answers to writes sent with an Idempotency-Key (the web app's offline queue sends one with each write), kept a day
 * per user, so a write replayed after a lost answer is answered again instead of done twice. `status` is null while
 * the first attempt is still running. `requestHash` (SHA-256 of method, path and body) tells a replay from another
 * request sent with the same key.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    requestHash: text(),
    status: integer(),
    contentType: text(),
    body: text(),
    createdAt: ms().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Background work, written in the same transaction as the change that causes it (an outbox). A worker claims due jobs
 * (an immediate transaction on SQLite), runs them, retries failures with backoff, and keeps a job that used all its
 * attempts as dead, visible and retryable. `uniqueKey` makes enqueueing idempotent; scheduled work uses
 * "<kind>:<slot>" so each time slot runs once across every process and machine.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: id(),
    kind: text().notNull(),
    payload: jsonb().notNull().$type<Record<string, unknown>>(),
    status: text({ enum: ["pending", "running", "done", "dead"] })
      .notNull()
      .default("pending"),
    runAt: ms().notNull(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(5),
    lockedBy: text(),
    lockedUntil: ms(),
    lastError: text(),
    uniqueKey: text(),
    createdAt: ms().notNull(),
    updatedAt: ms().notNull(),
    finishedAt: ms(),
  },
  (t) => [uniqueIndex("jobs_unique_key_idx").on(t.uniqueKey), index("jobs_due_idx").on(t.status, t.runAt)],
);
export type Job = typeof jobs.$inferSelect;

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    expirationTime: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
  ],
);

export const pushPreferences = pgTable("push_preferences", {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: boolean().notNull().default(true),
  loadAssigned: boolean().notNull().default(true),
  loadUpdates: boolean().notNull().default(true),
  paymentReceived: boolean().notNull().default(true),
  systemAlerts: boolean().notNull().default(false),
  marketing: boolean().notNull().default(false),
  quietHoursEnabled: boolean().notNull().default(false),
  quietHoursStart: text().notNull().default("22:00"),
  quietHoursEnd: text().notNull().default("08:00"),
  quietHoursTimezone: text().notNull().default("UTC"),
  updatedAt: ms().notNull(),
});

export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    url: text(),
    channel: text().notNull(),
    status: text({ enum: ["sent", "held", "failed"] }).notNull(),
    loadId: integer(),
    readAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    index("notifications_unread_idx").on(t.userId, t.channel, t.readAt),
  ],
);

export const messagingPreferences = pgTable(
  "messaging_preferences",
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    whatsappEnabled: boolean().notNull().default(false),
    whatsappNumber: text(),
    whatsappPendingNumber: text(),
    whatsappLastInboundAt: ms(),
    telegramEnabled: boolean().notNull().default(false),
    telegramChatId: text(),
    telegramBlockedAt: ms(),
    loadAssigned: boolean().notNull().default(true),
    loadUpdates: boolean().notNull().default(true),
    paymentReceived: boolean().notNull().default(true),
    systemAlerts: boolean().notNull().default(false),
    language: text().notNull().default("en"),
    updatedAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("messaging_preferences_telegram_idx").on(t.telegramChatId),
    uniqueIndex("messaging_preferences_whatsapp_idx").on(t.whatsappNumber),
  ],
);

export const telegramLinkTokens = pgTable(
  "telegram_link_tokens",
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    nonce: text(),
    expiresAt: ms().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [index("telegram_link_tokens_user_idx").on(t.userId)],
);

/** Codes proving WhatsApp numbers: see db/schema.ts. */
export const whatsappCodes = pgTable(
  "whatsapp_codes",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    number: text().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    usedAt: ms(),
    expiresAt: ms().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [
    index("whatsapp_codes_user_idx").on(t.userId, t.createdAt),
    index("whatsapp_codes_number_idx").on(t.number, t.createdAt),
  ],
);

/** Inbound chat deliveries already taken: see db/schema.ts. */
export const inboundUpdates = pgTable(
  "inbound_updates",
  {
    source: text().notNull(),
    externalId: text().notNull(),
    receivedAt: ms().notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.externalId] }), index("inbound_updates_received_idx").on(t.receivedAt)],
);

export const liveEvents = pgTable(
  "live_events",
  {
    id: id(),
    userId: integer().notNull(),
    kind: text().notNull(),
    payload: text().notNull().default("{}"),
    createdAt: ms().notNull(),
  },
  (t) => [index("live_events_created_idx").on(t.createdAt)],
);

export const loadAlerts = pgTable("load_alerts", {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: boolean().notNull().default(false),
  available: boolean().notNull().default(true),
  radiusMiles: integer().notNull().default(50),
  equipmentTypes: text().notNull().default("[]"),
  latitude: doublePrecision(),
  longitude: doublePrecision(),
  minLat: doublePrecision(),
  maxLat: doublePrecision(),
  minLng: doublePrecision(),
  maxLng: doublePrecision(),
  updatedAt: ms().notNull(),
});

/** A user's connection to an external load board: see db/schema.ts. */
export const marketplaceConfigs = pgTable(
  "marketplace_configs",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["dat", "truckstop", "123loadboard", "other"] }).notNull(),
    name: text().notNull(),
    apiBaseUrl: text().notNull(),
    isActive: boolean().notNull().default(true),
    syncEnabled: boolean().notNull().default(false),
    syncIntervalMinutes: integer().notNull().default(30),
    rateLimitPerHour: integer().notNull().default(1000),
    credentials: text().notNull(),
    credentialFields: jsonb().notNull().$type<string[]>(),
    lastSyncAt: ms(),
    lastError: text(),
    /**
     * Boards that search with a user's own authorization (123Loadboard): the user's access and refresh tokens, sealed
     * like the credentials; `oauth_status` says connected, or reconnect when the board refused to renew them.
     */
    oauthTokens: text(),
    oauthStatus: text({ enum: ["connected", "reconnect"] }),
    /** A connection under way: the state's MAC, the PKCE verifier, the redirect URI and its expiry, sealed; single use. */
    oauthPending: text(),
    ...timestamps,
  },
  (t) => [index("marketplace_configs_user_idx").on(t.userId)],
);
export type MarketplaceConfig = typeof marketplaceConfigs.$inferSelect;

/** A user's saved lane: see db/schema.ts. */
export const savedLanes = pgTable(
  "saved_lanes",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text(),
    originName: text().notNull(),
    originLatitude: doublePrecision().notNull(),
    originLongitude: doublePrecision().notNull(),
    originRadiusMiles: integer().notNull(),
    destinationName: text(),
    destinationLatitude: doublePrecision(),
    destinationLongitude: doublePrecision(),
    destinationRadiusMiles: integer(),
    equipmentTypes: jsonb().notNull().$type<string[]>(),
    ...timestamps,
  },
  (t) => [index("saved_lanes_user_idx").on(t.userId, t.id)],
);

/** One sync of one configuration: see db/schema.ts. */
export const syncRuns = pgTable(
  "sync_runs",
  {
    id: id(),
    configId: integer()
      .notNull()
      .references(() => marketplaceConfigs.id, { onDelete: "cascade" }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trigger: text({ enum: ["schedule", "manual"] }).notNull(),
    startedAt: ms().notNull(),
    finishedAt: ms(),
    found: integer().notNull().default(0),
    created: integer().notNull().default(0),
    updated: integer().notNull().default(0),
    expired: integer().notNull().default(0),
    /** Loads the board listed that could not be read (a field missing or in a form we do not know). */
    unreadable: integer().notNull().default(0),
    /** Lanes the board cannot search (Truckstop: an origin outside North America), left out of the run. */
    lanesOutside: integer().notNull().default(0),
    durationMs: integer(),
    error: text(),
    jobId: integer(),
  },
  (t) => [
    index("sync_runs_user_idx").on(t.userId, t.id),
    index("sync_runs_config_idx").on(t.configId, t.id),
    index("sync_runs_unfinished_idx").on(t.jobId).where(sql`finished_at IS NULL`),
  ],
);
export type SyncRun = typeof syncRuns.$inferSelect;

/** A user's connection to an online store: see db/schema.ts. */
export const ecommerceIntegrations = pgTable(
  "ecommerce_integrations",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text({ enum: ["shopify", "amazon", "alibaba"] }).notNull(),
    name: text().notNull(),
    isActive: boolean().notNull().default(true),
    credentials: text().notNull(),
    credentialFields: jsonb().notNull().$type<string[]>(),
    settings: jsonb().notNull().$type<Record<string, unknown>>(),
    totalOrdersSynced: integer().notNull().default(0),
    syncCursor: ms().notNull().default(0),
    lastSyncAt: ms(),
    lastError: text(),
    ...timestamps,
  },
  (t) => [index("ecommerce_integrations_user_idx").on(t.userId)],
);
export type EcommerceIntegration = typeof ecommerceIntegrations.$inferSelect;

/** A store order: see db/schema.ts. */
export const ecommerceOrders = pgTable(
  "ecommerce_orders",
  {
    id: id(),
    integrationId: integer()
      .notNull()
      .references(() => ecommerceIntegrations.id, { onDelete: "cascade" }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    externalOrderId: text().notNull(),
    orderNumber: text().notNull(),
    orderDate: ms().notNull(),
    storeUpdatedAt: ms().notNull(),
    customerName: text(),
    status: text({ enum: ["pending", "processing", "synced", "converted", "cancelled"] }).notNull(),
    storeStatus: text().notNull(),
    currency: text().notNull(),
    totalMinor: bigint({ mode: "number" }).notNull(),
    shippingName: text(),
    shippingLine1: text(),
    shippingCity: text(),
    shippingState: text(),
    shippingCountry: text(),
    shippingPostalCode: text(),
    shippingLatitude: doublePrecision(),
    shippingLongitude: doublePrecision(),
    items: jsonb()
      .notNull()
      .$type<{ title: string; quantity: number; sku: string | null; unitWeightGrams: number | null }[]>(),
    loadId: integer().references(() => loads.id, { onDelete: "set null" }),
    convertedAt: ms(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("ecommerce_orders_external_idx").on(t.integrationId, t.externalOrderId),
    index("ecommerce_orders_user_idx").on(t.userId, t.id),
  ],
);
export type EcommerceOrder = typeof ecommerceOrders.$inferSelect;

/** Store webhooks already taken: see db/schema.ts. */
export const ecommerceWebhooks = pgTable("ecommerce_webhooks", {
  webhookId: text().primaryKey(),
  integrationId: integer()
    .notNull()
    .references(() => ecommerceIntegrations.id, { onDelete: "cascade" }),
  receivedAt: ms().notNull(),
});

/** A payment: see db/schema.ts. */
export const payments = pgTable(
  "payments",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["stripe", "chapa", "grant"] }).notNull(),
    providerRef: text().notNull(),
    refundRef: text(),
    status: text({ enum: ["pending", "paid", "failed", "refunded", "cancelled"] }).notNull(),
    amountMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    months: integer().notNull().default(1),
    periodStart: ms(),
    periodEnd: ms(),
    receiptUrl: text(),
    note: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("payments_provider_ref_idx").on(t.provider, t.providerRef),
    index("payments_user_idx").on(t.userId, t.id),
  ],
);
export type Payment = typeof payments.$inferSelect;

/** Provider events already applied: see db/schema.ts. */
export const billingEvents = pgTable("billing_events", {
  id: text().primaryKey(),
  receivedAt: ms().notNull(),
});

/**
 * Personal API tokens: `mt_<publicId>_<secret>`. The public id finds the row; only the SHA-256 of the whole token is
 * kept, so a stolen database yields no working token. `scopes` is the space-separated list the token was given.
 * `windowStart`/`windowCount` are the token's request budget for the current minute, shared by every process.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    publicId: text().notNull(),
    tokenHash: text().notNull(),
    scopes: text().notNull(),
    createdAt: ms().notNull(),
    lastUsedAt: ms(),
    windowStart: ms().notNull().default(0),
    windowCount: integer().notNull().default(0),
  },
  (t) => [uniqueIndex("api_tokens_public_id_idx").on(t.publicId), index("api_tokens_user_idx").on(t.userId)],
);

/** A named board search: see db/schema.ts. */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    params: text().notNull(),
    originName: text(),
    destinationName: text(),
    minLat: doublePrecision(),
    maxLat: doublePrecision(),
    minLng: doublePrecision(),
    maxLng: doublePrecision(),
    lastOpenedAt: ms().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [index("saved_searches_user_idx").on(t.userId, t.id), index("saved_searches_box_idx").on(t.minLat, t.maxLat)],
);

/** New loads a saved search matched: see db/schema.ts. */
export const savedSearchMatches = pgTable(
  "saved_search_matches",
  {
    savedSearchId: integer()
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    matchedAt: ms().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.savedSearchId, t.loadId] }),
    index("saved_search_matches_at_idx").on(t.savedSearchId, t.matchedAt),
  ],
);
/** Freight payments (escrow): see db/schema.ts. */
export const freightPayments = pgTable(
  "freight_payments",
  {
    id: id(),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    shipperId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    driverId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["stripe", "chapa"] }).notNull(),
    providerRef: text().notNull(),
    chargeRef: text(),
    state: text({
      enum: ["awaiting_payment", "funded", "released", "paid_out", "refunded", "disputed", "failed"],
    }).notNull(),
    currency: text().notNull(),
    agreedMinor: bigint({ mode: "number" }).notNull(),
    feeMinor: bigint({ mode: "number" }).notNull(),
    note: text(),
    /** The open checkout's hosted page (Chapa cannot be asked for it again), null when none is open. */
    checkoutUrl: text(),
    /** Checkouts opened so far: numbers the next one's Stripe idempotency key and Chapa tx_ref. */
    checkoutAttempt: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("freight_payments_load_idx").on(t.loadId),
    uniqueIndex("freight_payments_ref_idx").on(t.provider, t.providerRef),
    index("freight_payments_shipper_idx").on(t.shipperId, t.id),
    index("freight_payments_driver_idx").on(t.driverId, t.id),
  ],
);
export type FreightPayment = typeof freightPayments.$inferSelect;

/** A freight payment's history: see db/schema.ts. */
export const freightPaymentEvents = pgTable(
  "freight_payment_events",
  {
    id: id(),
    paymentId: integer()
      .notNull()
      .references(() => freightPayments.id, { onDelete: "cascade" }),
    state: text().notNull(),
    detail: jsonb().$type<Record<string, unknown>>(),
    createdAt: ms().notNull(),
  },
  (t) => [index("freight_payment_events_payment_idx").on(t.paymentId, t.id)],
);

/** The ledger: see db/schema.ts. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: id(),
    txn: text().notNull(),
    paymentId: integer()
      .notNull()
      .references(() => freightPayments.id, { onDelete: "cascade" }),
    loadId: integer().notNull(),
    account: text({ enum: ["shipper", "escrow", "platform_fees", "driver", "provider_fees"] }).notNull(),
    currency: text().notNull(),
    amountMinor: bigint({ mode: "number" }).notNull(),
    providerObject: text(),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("ledger_entries_txn_idx").on(t.txn, t.account),
    index("ledger_entries_payment_idx").on(t.paymentId),
  ],
);
export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/** Operators on the web (see db/schema.ts). */
export const operators = pgTable("operators", {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  grantedAt: ms().notNull(),
});

/** Verification submissions about a subject (see db/schema.ts). */
export const verifications = pgTable(
  "verifications",
  {
    id: id(),
    subjectType: text({ enum: ["user"] }).notNull(),
    subjectId: integer().notNull(),
    submittedBy: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text({ enum: ["pending", "approved", "rejected"] }).notNull(),
    country: text({ enum: ["ET", "US"] }).notNull(),
    tradeLicenceNumber: text(),
    tin: text(),
    mcNumber: text(),
    dotNumber: text(),
    insuranceExpiresOn: text(),
    insuranceReminderAt: ms(),
    reason: text(),
    reviewedBy: integer().references(() => users.id, { onDelete: "set null" }),
    reviewedAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    index("verifications_subject_idx").on(t.subjectType, t.subjectId, t.id),
    index("verifications_status_idx").on(t.status, t.id),
    // One submission under review per subject: two sent at once cannot both be pending.
    uniqueIndex("verifications_one_pending_idx").on(t.subjectType, t.subjectId).where(sql`status = 'pending'`),
  ],
);

/** The files of verification submissions (see db/schema.ts). */
export const verificationFiles = pgTable(
  "verification_files",
  {
    id: id(),
    subjectType: text({ enum: ["user"] }).notNull(),
    subjectId: integer().notNull(),
    uploadedBy: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verificationId: integer().references(() => verifications.id, { onDelete: "cascade" }),
    kind: text({ enum: ["trade_licence", "tin", "mc_dot", "insurance", "drivers_licence"] }).notNull(),
    fileName: text().notNull(),
    contentType: text().notNull(),
    size: integer().notNull(),
    storageKey: text().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [
    index("verification_files_subject_idx").on(t.subjectType, t.subjectId, t.id),
    index("verification_files_verification_idx").on(t.verificationId),
  ],
);

/** A user's webhook endpoint: see db/schema.ts. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text().notNull(),
    events: text().notNull(),
    secretSealed: text().notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

/** One event for one endpoint: see db/schema.ts. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    event: text().notNull(),
    eventId: text().notNull(),
    body: text().notNull(),
    status: text({ enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    coalesceKey: text(),
    attempts: integer().notNull().default(0),
    lastStatusCode: integer(),
    createdAt: ms().notNull(),
    updatedAt: ms().notNull(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_coalesce_idx").on(t.coalesceKey, t.status),
  ],
);

/** Each request made for a delivery: see db/schema.ts. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: id(),
    deliveryId: integer()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    statusCode: integer(),
    durationMs: integer().notNull(),
    error: text(),
    resend: boolean().notNull().default(false),
    createdAt: ms().notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);

/** Where a driver is paid: see db/schema.ts. */
export const payoutMethods = pgTable(
  "payout_methods",
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["stripe", "chapa"] }).notNull(),
    stripeAccountId: text(),
    payoutsEnabled: boolean().notNull().default(false),
    detailsSubmitted: boolean().notNull().default(false),
    requirementsDue: jsonb().$type<string[]>(),
    bankCode: integer(),
    bankName: text(),
    mobileMoney: boolean().notNull().default(false),
    // The number sealed with the server key (secrets.ts): a payout number is never stored readable. Its last 4
    // digits are kept apart for the masked display, so showing the method never opens the seal.
    accountNumberSealed: text("account_number"),
    accountLast4: text(),
    accountName: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("payout_methods_user_idx").on(t.userId, t.provider),
    uniqueIndex("payout_methods_stripe_idx").on(t.stripeAccountId),
  ],
);
export type PayoutMethod = typeof payoutMethods.$inferSelect;

/** Companies: see db/schema.ts. */
export const companies = pgTable(
  "companies",
  {
    id: id(),
    kind: text({ enum: ["carrier", "shipper"] }).notNull(),
    name: text().notNull(),
    country: text().notNull(),
    createdById: integer().references(() => users.id, { onDelete: "set null" }),
    ratingSum: integer().notNull().default(0),
    totalRatings: integer().notNull().default(0),
    totalTrips: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [index("companies_kind_idx").on(t.kind)],
);

/** Company members: see db/schema.ts. */
export const companyMembers = pgTable(
  "company_members",
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text({ enum: ["owner", "dispatcher", "driver", "staff"] }).notNull(),
    createdAt: ms().notNull(),
  },
  (t) => [uniqueIndex("company_members_user_idx").on(t.userId), index("company_members_company_idx").on(t.companyId)],
);

/** Company invitations: see db/schema.ts. */
export const companyInvitations = pgTable(
  "company_invitations",
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    email: text(),
    phone: text(),
    role: text({ enum: ["owner", "dispatcher", "driver", "staff"] }).notNull(),
    language: text().notNull(),
    invitedById: integer().references(() => users.id, { onDelete: "set null" }),
    jobKey: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: ms().notNull(),
    acceptedById: integer().references(() => users.id, { onDelete: "set null" }),
    usedAt: ms(),
    revokedAt: ms(),
    // When the provider or the mail server took it, so a retried job sends nothing twice.
    sentAt: ms(),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("company_invitations_job_idx").on(t.jobKey),
    uniqueIndex("company_invitations_token_idx").on(t.tokenHash),
    index("company_invitations_company_idx").on(t.companyId, t.createdAt),
  ],
);

/** A driver's truck availability: see db/schema.ts. Found near a pickup through a GiST index of its origin's earth point. */
export const trucks = pgTable(
  "trucks",
  {
    id: id(),
    driverId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    originName: text().notNull(),
    originLatitude: doublePrecision().notNull(),
    originLongitude: doublePrecision().notNull(),
    availableStart: ms().notNull(),
    availableEnd: ms().notNull(),
    destinationName: text(),
    destinationLatitude: doublePrecision(),
    destinationLongitude: doublePrecision(),
    destinationRadiusMiles: integer(),
    equipmentType: text().notNull(),
    capacityLbs: doublePrecision().notNull(),
    lengthFt: doublePrecision(),
    plate: text(),
    note: text(),
    createdAt: ms().notNull(),
  },
  (t) => [index("trucks_driver_idx").on(t.driverId, t.id), index("trucks_available_end_idx").on(t.availableEnd)],
);

/** A shipper's invitation to a truck's driver to bid on a load: see db/schema.ts. */
export const truckInvitations = pgTable(
  "truck_invitations",
  {
    id: id(),
    truckId: integer()
      .notNull()
      .references(() => trucks.id, { onDelete: "cascade" }),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    shipperId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    driverId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: ms().notNull(),
  },
  (t) => [
    uniqueIndex("truck_invitations_truck_load_idx").on(t.truckId, t.loadId),
    index("truck_invitations_load_idx").on(t.loadId),
    index("truck_invitations_driver_idx").on(t.driverId, t.loadId),
  ],
);
