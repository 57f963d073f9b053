// The tables the domain queries, of the engine this process runs on (db/engine.ts): db/schema.ts (sqlite-core) or
// db/pg/schema.ts (pg-core), which have the same table and column names. The domain is written once, in the drizzle
// subset both dialects share, against these; the types are SQLite's (the row shapes are the same on both).
import { ENGINE } from "./engine";
import * as pgSchema from "./pg/schema";
import * as sqliteSchema from "./schema";

const active = (ENGINE === "pg" ? pgSchema : sqliteSchema) as unknown as typeof sqliteSchema;

export const {
  users,
  sessions,
  fxRates,
  fxRateHistory,
  loads,
  bids,
  messages,
  tripPoints,
  tripEvents,
  loadDocuments,
  tripAlerts,
  ratings,
  activityEvents,
  loginFailures,
  passwordResets,
  shipments,
  idempotencyKeys,
  jobs,
  pushSubscriptions,
  pushPreferences,
  notifications,
  messagingPreferences,
  telegramLinkTokens,
  whatsappCodes,
  inboundUpdates,
  liveEvents,
  loadAlerts,
  marketplaceConfigs,
  syncRuns,
  savedLanes,
  ecommerceIntegrations,
  ecommerceOrders,
  ecommerceWebhooks,
  payments,
  billingEvents,
  apiTokens,
} = active;

export type {
  ActivityEvent,
  Bid,
  EcommerceIntegration,
  EcommerceOrder,
  Job,
  LiveEvent,
  Load,
  LoadAlert,
  LoadDocument,
  MarketplaceConfig,
  Message,
  MessagingPreferences,
  NewLoad,
  Notification,
  Payment,
  PushSubscription,
  SavedLane,
  SyncRun,
  TripEvent,
  User,
} from "./schema";
