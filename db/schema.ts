import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Times are epoch milliseconds (UTC) everywhere; money is integer minor units beside an ISO currency code.

const timestamps = {
  createdAt: integer().notNull().default(sql`(unixepoch('subsec') * 1000)`),
  updatedAt: integer().notNull().default(sql`(unixepoch('subsec') * 1000)`),
};

export const users = sqliteTable(
  "users",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    // Null for an account made with a phone number only (drivers without email); unique among the rest.
    email: text(),
    passwordHash: text(),
    // When the email was proven by a link sent to it; null until then (the account works meanwhile).
    emailVerifiedAt: integer(),
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
    ethiopianTime: integer({ mode: "boolean" }).notNull().default(false),
    // Distances and weights shown in kilometres and kilograms (metric) or miles and pounds (imperial); stored values
    // stay in miles and pounds.
    units: text({ enum: ["metric", "imperial"] })
      .notNull()
      .default("imperial"),
    ratingSum: integer().notNull().default(0),
    totalRatings: integer().notNull().default(0),
    totalTrips: integer().notNull().default(0),
    // Premium: a trial that ends at trialEndsAt, a paid period that ends at paidUntil, or an explicit cancellation.
    trialEndsAt: integer().notNull(),
    paidUntil: integer(),
    subscriptionCancelledAt: integer(),
    // Billing: who collects (stripe, chapa, or a support grant), the Stripe customer and subscription, whether the paid
    // period ends without renewal, the first payment (for the 30-day refund), the newest subscription event applied
    // (older ones arriving late change nothing) and the period end a renewal reminder was sent for.
    billingProvider: text(),
    stripeCustomerId: text(),
    stripeSubscriptionId: text(),
    cancelAtPeriodEnd: integer({ mode: "boolean" }).notNull().default(false),
    firstPaidAt: integer(),
    billingEventAt: integer(),
    reminderSentFor: integer(),
    // Drivers: last reported position and availability.
    latitude: real(),
    longitude: real(),
    locationUpdatedAt: integer(),
    isAvailable: integer({ mode: "boolean" }).notNull().default(true),
    // When the owner deleted the account: the row stays, anonymised, for the other party of its trips, ratings and
    // payments (docs/security.md, "Account deletion").
    deletedAt: integer(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_idx").on(t.email),
    uniqueIndex("users_phone_idx").on(t.phone),
    uniqueIndex("users_oidc_idx").on(t.oidcIssuer, t.oidcSubject),
    index("users_type_idx").on(t.userType),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the 256-bit token in the cookie: a stolen database does not yield live sessions.
    idHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer().notNull(),
    lastSeenAt: integer().notNull(),
    userAgent: text(),
    createdAt: integer().notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const fxRates = sqliteTable("fx_rates", {
  currency: text().primaryKey(),
  name: text().notNull(),
  symbol: text().notNull(),
  // Units of this currency per 1 USD.
  ratePerUsd: real().notNull(),
  locale: text().notNull(),
  updatedAt: integer().notNull(),
  // The day (YYYY-MM-DD) the rate in use was published for, and where it came from: "seed" (the first-start
  // fallback, no day), "source" (the configured rates API) or "operator" (an override).
  rateDate: text(),
  source: text({ enum: ["seed", "source", "operator"] })
    .notNull()
    .default("seed"),
});

/**
 * Every rate ever fetched (source "source", one per currency and day) and every operator override (source "operator",
 * the day it was set, valid through `validUntil` inclusive, or until replaced when null).
 */
export const fxRateHistory = sqliteTable(
  "fx_rate_history",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    currency: text().notNull(),
    day: text().notNull(),
    ratePerUsd: real().notNull(),
    source: text({ enum: ["source", "operator"] }).notNull(),
    validUntil: text(),
    createdAt: integer().notNull(),
  },
  (t) => [uniqueIndex("fx_rate_history_currency_day_source_idx").on(t.currency, t.day, t.source)],
);

export const loads = sqliteTable(
  "loads",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    pickupLatitude: real().notNull(),
    pickupLongitude: real().notNull(),
    deliveryAddress: text().notNull(),
    deliveryCity: text().notNull(),
    deliveryState: text(),
    deliveryCountry: text().notNull(),
    deliveryLatitude: real().notNull(),
    deliveryLongitude: real().notNull(),
    pickupDate: integer().notNull(),
    deliveryDate: integer().notNull(),
    weightLbs: real().notNull(),
    equipmentType: text().notNull(),
    budgetMinor: integer().notNull(),
    budgetCurrency: text().notNull().default("USD"),
    // Full truckload (the trailer is the load's) or partial (LTL: shares the trailer); older loads are full.
    loadSize: text({ enum: ["full", "partial"] })
      .notNull()
      .default("full"),
    // Great-circle miles from pickup to delivery, computed once at insert.
    tripMiles: real().notNull(),
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
    sourceSeenAt: integer(),
    assignedDriverId: integer().references(() => users.id, { onDelete: "set null" }),
    acceptedBidId: integer(),
    // The carrier company the load was awarded to (the accepted bid's), whose owners and dispatchers assign its driver.
    carrierCompanyId: integer(),
    // The shipper company the poster belonged to when posting: its owners and staff act for the load as the poster does.
    shipperCompanyId: integer(),
    // What the award agreed: the accepted bid's amount, or the accepted counter-offer's. Trips and payments read it
    // here (docs/design-notes.md, "Counter-offers and the agreed amount"); null until the load is awarded.
    agreedAmountMinor: integer(),
    agreedCurrency: text(),
    cancelledById: integer(),
    cancelReason: text(),
    cancelledAt: integer(),
    pickedUpAt: integer(),
    deliveredAt: integer(),
    completedAt: integer(),
    // When the trip's track was cut down to its outline, 90 days after the trip ended (docs/design-notes.md).
    trackPrunedAt: integer(),
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

export const bids = sqliteTable(
  "bids",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    truckCapacityLbs: real(),
    truckPlate: text(),
    amountMinor: integer().notNull(),
    currency: text().notNull().default("USD"),
    proposedPickupDate: integer(),
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
export const bidCounters = sqliteTable(
  "bid_counters",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    // open: waiting for the other side; accepted (the load awarded at it); declined; countered (answered with a
    // counter); closed (the bid stopped being pending: changed, withdrawn, rejected, accepted as bid, load awarded
    // to another bid or cancelled).
    status: text({ enum: ["open", "accepted", "declined", "countered", "closed"] })
      .notNull()
      .default("open"),
    createdAt: integer().notNull(),
    answeredAt: integer(),
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
export const messages = sqliteTable(
  "messages",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    readAt: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [index("messages_conversation_idx").on(t.loadId, t.driverId, t.id)],
);

/**
 * The trip's track: positions the assigned driver reported (the app, a Telegram live location, or the driver's own
 * position update) between the award and the delivery. A point is stored once per load and time, so a batch the
 * offline queue sends again, or a Telegram edit repeating a point, adds nothing.
 */
export const tripPoints = sqliteTable(
  "trip_points",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    latitude: real().notNull(),
    longitude: real().notNull(),
    recordedAt: integer().notNull(),
    // What the device said of the fix, when it said it: metres, metres per second, degrees from north.
    accuracy: real(),
    speed: real(),
    heading: real(),
  },
  (t) => [uniqueIndex("trip_points_load_time_idx").on(t.loadId, t.recordedAt)],
);

/**
 * What the tracking noticed on a trip and told the shipper: the driver arrived at the pickup or the delivery point
 * (once each), or the ETA passed the delivery date (`etaAt`: the ETA told; told again only when it slips another hour).
 */
export const tripAlerts = sqliteTable(
  "trip_alerts",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    kind: text({ enum: ["arrived_pickup", "arrived_delivery", "delayed"] }).notNull(),
    etaAt: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [
    index("trip_alerts_load_idx").on(t.loadId, t.createdAt),
    uniqueIndex("trip_alerts_arrival_idx").on(t.loadId, t.kind).where(sql`kind <> 'delayed'`),
  ],
);

/**
 * The consignee's tracking link of a load: one live link per load (a new one replaces the old, revoking deletes it).
 * Only the SHA-256 of the link's token is kept; the link expires 7 days after the delivery (`TRACKING_LINK_TTL_MS`).
 */
export const trackingLinks = sqliteTable("tracking_links", {
  id: integer().primaryKey({ autoIncrement: true }),
  loadId: integer()
    .notNull()
    .unique()
    .references(() => loads.id, { onDelete: "cascade" }),
  tokenHash: text().notNull().unique(),
  createdAt: integer().notNull(),
});

/**
 * A load's trip after the award, one row per step (awarded, rate confirmation accepted, picked up, delivered, POD
 * accepted, disputed, completed), written in the same transaction as the status it records. `actorId` is null for the
 * system (a completion after 48 hours without an answer).
 */
export const tripEvents = sqliteTable(
  "trip_events",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    detail: text({ mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: integer().notNull(),
  },
  (t) => [index("trip_events_load_idx").on(t.loadId, t.id)],
);

export type TripEvent = typeof tripEvents.$inferSelect;

/**
 * Files of a load (bill of lading, proof of delivery, photos, anything else) uploaded by its shipper or assigned
 * driver. The bytes are in the file storage under `storageKey`; photos are stored re-encoded, without their metadata.
 */
export const loadDocuments = sqliteTable(
  "load_documents",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    createdAt: integer().notNull(),
  },
  (t) => [
    index("load_documents_load_idx").on(t.loadId, t.id),
    uniqueIndex("load_documents_client_key_idx").on(t.uploaderId, t.clientKey),
  ],
);

export type LoadDocument = typeof loadDocuments.$inferSelect;

/** One rating per side per completed load. */
export const ratings = sqliteTable(
  "ratings",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    createdAt: integer().notNull(),
  },
  (t) => [uniqueIndex("ratings_once_idx").on(t.loadId, t.raterId)],
);

/** What happened, one row per user who should see it in their activity feed. */
export const activityEvents = sqliteTable(
  "activity_events",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    createdAt: integer().notNull(),
  },
  (t) => [index("activity_user_idx").on(t.userId, t.id)],
);

export type Message = typeof messages.$inferSelect;
export type ActivityEvent = typeof activityEvents.$inferSelect;

/** Failed sign-ins, by account ("a:<email>") and by client address ("i:<ip>"), shared by every server process. */
export const loginFailures = sqliteTable(
  "login_failures",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    key: text().notNull(),
    at: integer().notNull(),
  },
  (t) => [index("login_failures_key_idx").on(t.key, t.at)],
);

/**
 * A link mailed to prove an email address: the one an account signed up with, or one added to an account made with a
 * phone number. Only the token's SHA-256 is kept; a link works once, until it expires.
 */
export const emailVerifications = sqliteTable(
  "email_verifications",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text().notNull(),
    jobKey: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: integer().notNull(),
    usedAt: integer(),
    createdAt: integer().notNull(),
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
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    jobKey: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: integer().notNull(),
    usedAt: integer(),
    createdAt: integer().notNull(),
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
export const phoneCodes = sqliteTable(
  "phone_codes",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    phone: text().notNull(),
    purpose: text({ enum: ["reset", "add_phone", "signin", "delete_account"] }).notNull(),
    userId: integer().references(() => users.id, { onDelete: "cascade" }),
    jobKey: text().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    expiresAt: integer().notNull(),
    usedAt: integer(),
    sentAt: integer(),
    provider: text(),
    providerMessageId: text(),
    createdAt: integer().notNull(),
  },
  (t) => [
    uniqueIndex("phone_codes_job_idx").on(t.jobKey),
    index("phone_codes_phone_idx").on(t.phone, t.createdAt),
    index("phone_codes_created_idx").on(t.createdAt),
  ],
);

/** A parcel quote a user chose ("Select This Service"), kept with its addresses and packages. */
export const shipments = sqliteTable(
  "shipments",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    carrier: text().notNull(),
    serviceCode: text().notNull(),
    serviceName: text().notNull(),
    totalCostMinor: integer().notNull(),
    currency: text().notNull(),
    deliveryDays: integer(),
    guaranteedDelivery: integer({ mode: "boolean" }).notNull(),
    shipper: text({ mode: "json" }).notNull(),
    recipient: text({ mode: "json" }).notNull(),
    packages: text({ mode: "json" }).notNull(),
    createdAt: integer().notNull(),
  },
  (t) => [index("shipments_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Answers to writes sent with an Idempotency-Key (the web app's offline queue sends one with each write), kept a day
 * per user, so a write replayed after a lost answer is answered again instead of done twice. `status` is null while
 * the first attempt is still running. `requestHash` (SHA-256 of method, path and body) tells a replay from another
 * request sent with the same key.
 */
export const idempotencyKeys = sqliteTable(
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
    createdAt: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Background work, written in the same transaction as the change that causes it (an outbox). A worker claims due jobs
 * (an immediate transaction on SQLite), runs them, retries failures with backoff, and keeps a job that used all its
 * attempts as dead, visible and retryable. `uniqueKey` makes enqueueing idempotent; scheduled work uses
 * "<kind>:<slot>" so each time slot runs once across every process and machine.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    kind: text().notNull(),
    payload: text({ mode: "json" }).notNull().$type<Record<string, unknown>>(),
    status: text({ enum: ["pending", "running", "done", "dead"] })
      .notNull()
      .default("pending"),
    runAt: integer().notNull(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(5),
    lockedBy: text(),
    lockedUntil: integer(),
    lastError: text(),
    uniqueKey: text(),
    createdAt: integer().notNull(),
    updatedAt: integer().notNull(),
    finishedAt: integer(),
  },
  (t) => [uniqueIndex("jobs_unique_key_idx").on(t.uniqueKey), index("jobs_due_idx").on(t.status, t.runAt)],
);
export type Job = typeof jobs.$inferSelect;

/** A browser's push subscription (RFC 8030): one row per endpoint, owned by the user who subscribed with it. */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    /** When the browser says the subscription ends (epoch ms), if it says. */
    expirationTime: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
  ],
);
export type PushSubscription = typeof pushSubscriptions.$inferSelect;

/** Push preferences; a user without a row has the product's defaults (docs/product-rules.md, Notifications). */
export const pushPreferences = sqliteTable("push_preferences", {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer({ mode: "boolean" }).notNull().default(true),
  loadAssigned: integer({ mode: "boolean" }).notNull().default(true),
  loadUpdates: integer({ mode: "boolean" }).notNull().default(true),
  paymentReceived: integer({ mode: "boolean" }).notNull().default(true),
  systemAlerts: integer({ mode: "boolean" }).notNull().default(false),
  marketing: integer({ mode: "boolean" }).notNull().default(false),
  quietHoursEnabled: integer({ mode: "boolean" }).notNull().default(false),
  quietHoursStart: text().notNull().default("22:00"),
  quietHoursEnd: text().notNull().default("08:00"),
  quietHoursTimezone: text().notNull().default("UTC"),
  updatedAt: integer().notNull(),
});

/** What was sent to whom, on which channel, and how it went: a user's own history of notifications. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    url: text(),
    channel: text().notNull(),
    status: text({ enum: ["sent", "held", "failed"] }).notNull(),
    /** The load it is about, for the bell's links and for marking a load's notifications read. */
    loadId: integer(),
    /** In-app (`in_app`) rows only: when the user opened or dismissed it; null while unread. */
    readAt: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    index("notifications_unread_idx").on(t.userId, t.channel, t.readAt),
  ],
);
export type Notification = typeof notifications.$inferSelect;

/**
 * Messaging preferences: WhatsApp and Telegram addresses and switches, notification types, the language
 * chat messages are written in. A user without a row has the defaults (both channels off, types as push's less
 * marketing, English).
 */
export const messagingPreferences = sqliteTable(
  "messaging_preferences",
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    whatsappEnabled: integer({ mode: "boolean" }).notNull().default(false),
    /**
     * The verified number, E.164 (e.g. +251911234567): the only number anything is sent to, answered for, and
     * reserved against other accounts. It is set only by the proof of a code sent to it.
     */
    whatsappNumber: text(),
    /** A number saved but not proven yet: shown as unverified, sent nothing but its code, reserved by no one. */
    whatsappPendingNumber: text(),
    /** When the verified number last wrote to us (epoch ms): WhatsApp takes free text only within 24 hours of it. */
    whatsappLastInboundAt: integer(),
    telegramEnabled: integer({ mode: "boolean" }).notNull().default(false),
    telegramChatId: text(),
    /** Set when Telegram said the user blocked the bot (403); the app says so until the chat is linked again. */
    telegramBlockedAt: integer(),
    loadAssigned: integer({ mode: "boolean" }).notNull().default(true),
    loadUpdates: integer({ mode: "boolean" }).notNull().default(true),
    paymentReceived: integer({ mode: "boolean" }).notNull().default(true),
    systemAlerts: integer({ mode: "boolean" }).notNull().default(false),
    language: text().notNull().default("en"),
    updatedAt: integer().notNull(),
  },
  (t) => [
    uniqueIndex("messaging_preferences_telegram_idx").on(t.telegramChatId),
    uniqueIndex("messaging_preferences_whatsapp_idx").on(t.whatsappNumber),
  ],
);
export type MessagingPreferences = typeof messagingPreferences.$inferSelect;

/** One-time tokens of Telegram deep links (t.me/<bot>?start=<token>): only a SHA-256 of the token is kept. */
export const telegramLinkTokens = sqliteTable(
  "telegram_link_tokens",
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * A random id the token is derived from with the server's key (HMAC), so the page can show a live link again
     * without the token itself being stored; null on tokens made before.
     */
    nonce: text(),
    expiresAt: integer().notNull(),
    createdAt: integer().notNull(),
  },
  (t) => [index("telegram_link_tokens_user_idx").on(t.userId)],
);

/**
 * Codes sent to a WhatsApp number to prove it belongs to the account (6 digits, kept only as an HMAC with the server's
 * key). One row per send: the newest of an account is the live one; the rows of the last hour count against the
 * sending limits (per account and per number). Housekeeping deletes old rows.
 */
export const whatsappCodes = sqliteTable(
  "whatsapp_codes",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** E.164: the number the code went to, which the code proves. */
    number: text().notNull(),
    codeHash: text().notNull(),
    /** Wrong codes typed against this row. */
    attempts: integer().notNull().default(0),
    usedAt: integer(),
    expiresAt: integer().notNull(),
    createdAt: integer().notNull(),
  },
  (t) => [
    index("whatsapp_codes_user_idx").on(t.userId, t.createdAt),
    index("whatsapp_codes_number_idx").on(t.number, t.createdAt),
  ],
);

/**
 * Inbound chat deliveries already taken (a Telegram update_id, a WhatsApp message id), so a redelivered or replayed
 * one runs nothing: shared by every server process through the database, pruned by housekeeping.
 */
export const inboundUpdates = sqliteTable(
  "inbound_updates",
  {
    /** telegram, whatsapp (Cloud API) or whatsapp-web. */
    source: text().notNull(),
    externalId: text().notNull(),
    receivedAt: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.externalId] }), index("inbound_updates_received_idx").on(t.receivedAt)],
);

/**
 * Live updates: a short-lived feed every server process tails (one query per process and tick, not per connection)
 * to push changes to the browsers connected to it, whichever process made the change. `kind` names what changed
 * (notification, message, bid, load); `payload` is JSON with ids only.
 */
export const liveEvents = sqliteTable(
  "live_events",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer().notNull(),
    kind: text().notNull(),
    payload: text().notNull().default("{}"),
    createdAt: integer().notNull(),
  },
  (t) => [index("live_events_created_idx").on(t.createdAt)],
);
export type LiveEvent = typeof liveEvents.$inferSelect;

/**
 * A driver's alerts for new loads near them: on or off, a radius (one of the board's radius options) and equipment
 * types (none = any). The area is the circle around the driver's last position, kept here (and its bounding box, which
 * SQLite's `load_alerts_rtree` indexes through triggers; PostgreSQL indexes the earth box with GiST) so that matching a
 * new load reads the index, never every driver.
 */
export const loadAlerts = sqliteTable("load_alerts", {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer({ mode: "boolean" }).notNull().default(false),
  /** A copy of the driver's availability, so matching needs no look-up of each driver. */
  available: integer({ mode: "boolean" }).notNull().default(true),
  radiusMiles: integer().notNull().default(50),
  /** JSON array of equipment types; empty means any. */
  equipmentTypes: text().notNull().default("[]"),
  latitude: real(),
  longitude: real(),
  minLat: real(),
  maxLat: real(),
  minLng: real(),
  maxLng: real(),
  updatedAt: integer().notNull(),
});
export type LoadAlert = typeof loadAlerts.$inferSelect;

/**
 * A user's connection to an external load board (a marketplace configuration). Board subscriptions are personal:
 * a configuration and everything synced through it belong to the user who added it. `credentials` is the sealed JSON of
 * the credential fields (AES-256-GCM, src/server/secrets.ts); `credentialFields` names the fields that are set, which is
 * all the API ever shows of them.
 */
export const marketplaceConfigs = sqliteTable(
  "marketplace_configs",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["dat", "truckstop", "123loadboard", "other"] }).notNull(),
    name: text().notNull(),
    apiBaseUrl: text().notNull(),
    isActive: integer({ mode: "boolean" }).notNull().default(true),
    syncEnabled: integer({ mode: "boolean" }).notNull().default(false),
    syncIntervalMinutes: integer().notNull().default(30),
    rateLimitPerHour: integer().notNull().default(1000),
    credentials: text().notNull(),
    credentialFields: text({ mode: "json" }).notNull().$type<string[]>(),
    lastSyncAt: integer(),
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

/** One sync of one configuration: when, what it found, what changed, how long, and the board's error if it failed. */
export const syncRuns = sqliteTable(
  "sync_runs",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    configId: integer()
      .notNull()
      .references(() => marketplaceConfigs.id, { onDelete: "cascade" }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trigger: text({ enum: ["schedule", "manual"] }).notNull(),
    startedAt: integer().notNull(),
    finishedAt: integer(),
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
    /**
     * The job that ran it (none for an operator's run in the CLI's own process): a run its job no longer holds is
     * closed as failed, since the worker that was running it died.
     */
    jobId: integer(),
  },
  (t) => [
    index("sync_runs_user_idx").on(t.userId, t.id),
    index("sync_runs_config_idx").on(t.configId, t.id),
    index("sync_runs_unfinished_idx").on(t.jobId).where(sql`finished_at IS NULL`),
  ],
);
export type SyncRun = typeof syncRuns.$inferSelect;

/**
 * A user's saved lane (what DAT and Truckstop users save as "Addis Ababa → Djibouti, 150 mi, Dry Van"): an origin place
 * and radius, an optional destination place and radius, and equipment types (empty: any). Board sync searches each one
 * besides the user's last location. Names are as the place picker showed them; coordinates are what is searched.
 */
export const savedLanes = sqliteTable(
  "saved_lanes",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text(),
    originName: text().notNull(),
    originLatitude: real().notNull(),
    originLongitude: real().notNull(),
    originRadiusMiles: integer().notNull(),
    destinationName: text(),
    destinationLatitude: real(),
    destinationLongitude: real(),
    destinationRadiusMiles: integer(),
    equipmentTypes: text({ mode: "json" }).notNull().$type<string[]>(),
    ...timestamps,
  },
  (t) => [index("saved_lanes_user_idx").on(t.userId, t.id)],
);
export type SavedLane = typeof savedLanes.$inferSelect;

/**
 * A user's connection to an online store (an e-commerce integration): sealed credentials as for boards, settings
 * (warehouse, defaults for the loads its orders become, which statuses to import, an optional apiBaseUrl) as JSON, the
 * sync cursor (the store's last change time seen) and counters.
 */
export const ecommerceIntegrations = sqliteTable(
  "ecommerce_integrations",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text({ enum: ["shopify", "amazon", "alibaba"] }).notNull(),
    name: text().notNull(),
    isActive: integer({ mode: "boolean" }).notNull().default(true),
    credentials: text().notNull(),
    credentialFields: text({ mode: "json" }).notNull().$type<string[]>(),
    settings: text({ mode: "json" }).notNull().$type<Record<string, unknown>>(),
    totalOrdersSynced: integer().notNull().default(0),
    syncCursor: integer().notNull().default(0),
    lastSyncAt: integer(),
    lastError: text(),
    ...timestamps,
  },
  (t) => [index("ecommerce_integrations_user_idx").on(t.userId)],
);
export type EcommerceIntegration = typeof ecommerceIntegrations.$inferSelect;

/** A store order (an e-commerce order), one per (integration, external order id), with the load it became. */
export const ecommerceOrders = sqliteTable(
  "ecommerce_orders",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    integrationId: integer()
      .notNull()
      .references(() => ecommerceIntegrations.id, { onDelete: "cascade" }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    externalOrderId: text().notNull(),
    orderNumber: text().notNull(),
    orderDate: integer().notNull(),
    storeUpdatedAt: integer().notNull(),
    customerName: text(),
    status: text({ enum: ["pending", "processing", "synced", "converted", "cancelled"] }).notNull(),
    storeStatus: text().notNull(),
    currency: text().notNull(),
    totalMinor: integer().notNull(),
    shippingName: text(),
    shippingLine1: text(),
    shippingCity: text(),
    shippingState: text(),
    shippingCountry: text(),
    shippingPostalCode: text(),
    shippingLatitude: real(),
    shippingLongitude: real(),
    /** JSON array of line items: title, quantity, sku, unitWeightGrams. */
    items: text({ mode: "json" })
      .notNull()
      .$type<{ title: string; quantity: number; sku: string | null; unitWeightGrams: number | null }[]>(),
    loadId: integer().references(() => loads.id, { onDelete: "set null" }),
    convertedAt: integer(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("ecommerce_orders_external_idx").on(t.integrationId, t.externalOrderId),
    index("ecommerce_orders_user_idx").on(t.userId, t.id),
  ],
);
export type EcommerceOrder = typeof ecommerceOrders.$inferSelect;

/** Store webhooks already taken (by the platform's delivery id), so a replayed delivery changes nothing. */
export const ecommerceWebhooks = sqliteTable("ecommerce_webhooks", {
  webhookId: text().primaryKey(),
  integrationId: integer()
    .notNull()
    .references(() => ecommerceIntegrations.id, { onDelete: "cascade" }),
  receivedAt: integer().notNull(),
});

/** A payment: a Stripe invoice or checkout, a Chapa transaction, or a support grant; what it bought and its state. */
export const payments = sqliteTable(
  "payments",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["stripe", "chapa", "grant"] }).notNull(),
    /** The provider's id of this payment: checkout session, invoice, tx_ref, or a grant's own key. */
    providerRef: text().notNull(),
    /** What refunds go through: Stripe's payment intent, Chapa's reference. */
    refundRef: text(),
    status: text({ enum: ["pending", "paid", "failed", "refunded", "cancelled"] }).notNull(),
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    months: integer().notNull().default(1),
    periodStart: integer(),
    periodEnd: integer(),
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

/** Provider events already applied (Stripe event ids, Chapa tx_ref + status): a replay changes nothing. */
export const billingEvents = sqliteTable("billing_events", {
  id: text().primaryKey(),
  receivedAt: integer().notNull(),
});

/**
 * Personal API tokens: `mt_<publicId>_<secret>`. The public id finds the row; only the SHA-256 of the whole token is
 * kept, so a stolen database yields no working token. `scopes` is the space-separated list the token was given.
 * `windowStart`/`windowCount` are the token's request budget for the current minute, shared by every process.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    publicId: text().notNull(),
    tokenHash: text().notNull(),
    scopes: text().notNull(),
    createdAt: integer().notNull(),
    lastUsedAt: integer(),
    windowStart: integer().notNull().default(0),
    windowCount: integer().notNull().default(0),
  },
  (t) => [uniqueIndex("api_tokens_public_id_idx").on(t.publicId), index("api_tokens_user_idx").on(t.userId)],
);

/**
 * A named board search. `params` is the JSON of its parameters exactly as `GET /api/loads` takes them (checked by the
 * same schema); `originName`/`destinationName` are the place names the board shows beside those points. The origin's
 * box (NULL without an origin) lets the matching of a new load read only searches that could hold its pickup.
 */
export const savedSearches = sqliteTable(
  "saved_searches",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    params: text().notNull(),
    originName: text(),
    destinationName: text(),
    minLat: real(),
    maxLat: real(),
    minLng: real(),
    maxLng: real(),
    lastOpenedAt: integer().notNull(),
    createdAt: integer().notNull(),
  },
  (t) => [index("saved_searches_user_idx").on(t.userId, t.id), index("saved_searches_box_idx").on(t.minLat, t.maxLat)],
);
export type SavedSearch = typeof savedSearches.$inferSelect;

/** New loads a saved search matched (once each), for its "N new" since it was last opened. */
export const savedSearchMatches = sqliteTable(
  "saved_search_matches",
  {
    savedSearchId: integer()
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    loadId: integer()
      .notNull()
      .references(() => loads.id, { onDelete: "cascade" }),
    matchedAt: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.savedSearchId, t.loadId] }),
    index("saved_search_matches_at_idx").on(t.savedSearchId, t.matchedAt),
  ],
);

/**
 * Freight payments (escrow): one row per load, from the shipper's first checkout on. Amounts are minor units of
 * `currency` (the agreed bid's): the driver's share `agreedMinor`, the platform's fee `feeMinor`, and what the shipper
 * is charged, their sum. `providerRef` is the latest checkout (Stripe session id, Chapa tx_ref); `chargeRef` the paid
 * charge (Stripe `ch_…`, Chapa's reference), which transfers name as their source.
 */
export const freightPayments = sqliteTable(
  "freight_payments",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    agreedMinor: integer().notNull(),
    feeMinor: integer().notNull(),
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

/** A freight payment's history: each state it entered, when, and a small JSON detail (provider object, reason). */
export const freightPaymentEvents = sqliteTable(
  "freight_payment_events",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    paymentId: integer()
      .notNull()
      .references(() => freightPayments.id, { onDelete: "cascade" }),
    state: text().notNull(),
    detail: text({ mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: integer().notNull(),
  },
  (t) => [index("freight_payment_events_payment_idx").on(t.paymentId, t.id)],
);

/**
 * The ledger: double-entry, one row per account of a transaction (`txn`, e.g. `fund:<payment id>`), minor units
 * signed (money into an account is positive), per currency; the entries of one transaction sum to zero. Accounts:
 * shipper, escrow, platform_fees, driver, provider_fees. `providerObject` is the provider's id of the money movement
 * (charge, transfer, refund). A transaction is written once (unique txn and account).
 */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    txn: text().notNull(),
    paymentId: integer()
      .notNull()
      .references(() => freightPayments.id, { onDelete: "cascade" }),
    loadId: integer().notNull(),
    account: text({ enum: ["shipper", "escrow", "platform_fees", "driver", "provider_fees"] }).notNull(),
    currency: text().notNull(),
    amountMinor: integer().notNull(),
    providerObject: text(),
    createdAt: integer().notNull(),
  },
  (t) => [
    uniqueIndex("ledger_entries_txn_idx").on(t.txn, t.account),
    index("ledger_entries_payment_idx").on(t.paymentId),
  ],
);
export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/**
 * Operators on the web: accounts an operator named from the CLI (`mytess user operator <email>`), who review
 * verification submissions on the web page. The CLI itself is always the operator.
 */
export const operators = sqliteTable("operators", {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  grantedAt: integer().notNull(),
});

/**
 * A verification submission about a subject: today always an account (`subjectType` "user", `subjectId` its id); a
 * company can be a subject later without a new table. `submittedBy` is the account that sent it (for a user subject,
 * the subject itself), so deleting the account takes its submissions with it. Ethiopian businesses give a trade
 * licence and TIN, US carriers an MC and/or DOT number; insurance (certificate and expiry) and a driver's licence
 * are optional parts. pending → approved | rejected (with a reason); a new submission may follow any but a pending one.
 */
export const verifications = sqliteTable(
  "verifications",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    /** The insurance certificate's last day (YYYY-MM-DD), when one was given. */
    insuranceExpiresOn: text(),
    /** When the owner was told the insurance is about to expire (once per submission). */
    insuranceReminderAt: integer(),
    reason: text(),
    reviewedBy: integer().references(() => users.id, { onDelete: "set null" }),
    reviewedAt: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [
    index("verifications_subject_idx").on(t.subjectType, t.subjectId, t.id),
    index("verifications_status_idx").on(t.status, t.id),
    // One submission under review per subject: two sent at once cannot both be pending.
    uniqueIndex("verifications_one_pending_idx").on(t.subjectType, t.subjectId).where(sql`status = 'pending'`),
  ],
);
export type Verification = typeof verifications.$inferSelect;

/**
 * The files of verification submissions, stored like load documents (`verification/<subject>/<uuid>.<ext>`). A file is
 * uploaded first (no `verificationId`) and taken by the submission that names it.
 */
export const verificationFiles = sqliteTable(
  "verification_files",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    createdAt: integer().notNull(),
  },
  (t) => [
    index("verification_files_subject_idx").on(t.subjectType, t.subjectId, t.id),
    index("verification_files_verification_idx").on(t.verificationId),
  ],
);
export type VerificationFile = typeof verificationFiles.$inferSelect;

/**
 * A user's webhook endpoint: an https URL that receives the events named in `events` (space-separated), signed with a
 * secret kept sealed by the server key (`secretSealed`, shown to the user once).
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text().notNull(),
    events: text().notNull(),
    secretSealed: text().notNull(),
    createdAt: integer().notNull(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

/**
 * One event for one endpoint: the body exactly as it is signed and sent, its state (`pending` until an attempt gets a
 * 2xx, `failed` after the last retry) and its attempts. A `load.position` not sent yet is replaced in place by the next
 * position of the same load (`coalesceKey`).
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    createdAt: integer().notNull(),
    updatedAt: integer().notNull(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_coalesce_idx").on(t.coalesceKey, t.status),
  ],
);

/** Each request made for a delivery: the answer's status (null when none came), how long it took, the error. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    deliveryId: integer()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    statusCode: integer(),
    durationMs: integer().notNull(),
    error: text(),
    resend: integer({ mode: "boolean" }).notNull().default(false),
    createdAt: integer().notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/**
 * Where a driver is paid: one row per provider. Stripe: the Connect account MyTess created for the driver and what
 * Stripe last said of it (read back from Stripe on each `account.updated`, so events in any order leave the newest
 * truth). Chapa: the bank or mobile-money wallet (Chapa's bank id from its `GET /v1/banks`, never a code of ours), the
 * account number and the account holder's name the driver confirmed.
 */
export const payoutMethods = sqliteTable(
  "payout_methods",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text({ enum: ["stripe", "chapa"] }).notNull(),
    stripeAccountId: text(),
    payoutsEnabled: integer({ mode: "boolean" }).notNull().default(false),
    detailsSubmitted: integer({ mode: "boolean" }).notNull().default(false),
    requirementsDue: text({ mode: "json" }).$type<string[]>(),
    bankCode: integer(),
    bankName: text(),
    mobileMoney: integer({ mode: "boolean" }).notNull().default(false),
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

/**
 * Companies: a carrier (fleet) or a shipper business whose members act for it. Ratings and completed trips of the
 * company's work are counted here, beside its members' own.
 */
export const companies = sqliteTable(
  "companies",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    kind: text({ enum: ["carrier", "shipper"] }).notNull(),
    name: text().notNull(),
    // ISO 3166-1 alpha-2.
    country: text().notNull(),
    createdById: integer().references(() => users.id, { onDelete: "set null" }),
    ratingSum: integer().notNull().default(0),
    totalRatings: integer().notNull().default(0),
    totalTrips: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [index("companies_kind_idx").on(t.kind)],
);
export type Company = typeof companies.$inferSelect;

/** Who belongs to a company, and as what. A person belongs to at most one company (the unique user). */
export const companyMembers = sqliteTable(
  "company_members",
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Carriers: owner, dispatcher, driver; shippers: owner, staff.
    role: text({ enum: ["owner", "dispatcher", "driver", "staff"] }).notNull(),
    createdAt: integer().notNull(),
  },
  (t) => [uniqueIndex("company_members_user_idx").on(t.userId), index("company_members_company_idx").on(t.companyId)],
);
export type CompanyMember = typeof companyMembers.$inferSelect;

/**
 * Invitations to a company, by email or by phone (E.164), for one role. The link's token is derived from the row's
 * random job key with the server key and only its SHA-256 is kept; it works once, until `expiresAt`.
 */
export const companyInvitations = sqliteTable(
  "company_invitations",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    email: text(),
    phone: text(),
    role: text({ enum: ["owner", "dispatcher", "driver", "staff"] }).notNull(),
    // The language the invitation is sent in.
    language: text().notNull(),
    invitedById: integer().references(() => users.id, { onDelete: "set null" }),
    jobKey: text().notNull(),
    tokenHash: text().notNull(),
    expiresAt: integer().notNull(),
    acceptedById: integer().references(() => users.id, { onDelete: "set null" }),
    usedAt: integer(),
    revokedAt: integer(),
    // When the provider or the mail server took it, so a retried job sends nothing twice.
    sentAt: integer(),
    createdAt: integer().notNull(),
  },
  (t) => [
    uniqueIndex("company_invitations_job_idx").on(t.jobKey),
    uniqueIndex("company_invitations_token_idx").on(t.tokenHash),
    index("company_invitations_company_idx").on(t.companyId, t.createdAt),
  ],
);
export type CompanyInvitation = typeof companyInvitations.$inferSelect;

/**
 * A driver's truck availability: where and from when to when it is free, where it would go (a point with a radius, or
 * anywhere when the destination is NULL), its equipment and capacity. Shippers find it near their pickup through
 * `trucks_origin_rtree` (migration, kept by triggers); past `available_end` it is hidden from search, and housekeeping
 * removes it later.
 */
export const trucks = sqliteTable(
  "trucks",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    driverId: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    originName: text().notNull(),
    originLatitude: real().notNull(),
    originLongitude: real().notNull(),
    availableStart: integer().notNull(),
    availableEnd: integer().notNull(),
    destinationName: text(),
    destinationLatitude: real(),
    destinationLongitude: real(),
    destinationRadiusMiles: integer(),
    equipmentType: text().notNull(),
    capacityLbs: real().notNull(),
    lengthFt: real(),
    plate: text(),
    note: text(),
    createdAt: integer().notNull(),
  },
  (t) => [index("trucks_driver_idx").on(t.driverId, t.id), index("trucks_available_end_idx").on(t.availableEnd)],
);
export type Truck = typeof trucks.$inferSelect;

/** A shipper's invitation to a truck's driver to bid on one of the shipper's open loads: at most one per truck and load. */
export const truckInvitations = sqliteTable(
  "truck_invitations",
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    createdAt: integer().notNull(),
  },
  (t) => [
    uniqueIndex("truck_invitations_truck_load_idx").on(t.truckId, t.loadId),
    index("truck_invitations_load_idx").on(t.loadId),
    index("truck_invitations_driver_idx").on(t.driverId, t.loadId),
  ],
);
export type TruckInvitation = typeof truckInvitations.$inferSelect;
