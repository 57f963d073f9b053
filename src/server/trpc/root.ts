// The one router every door calls: each feature's procedures under its name. A module's router is imported here and
// nowhere else, so a procedure never reaches another module's router (it shares that module's domain functions).
import { accountDataRouter } from "../modules/account-data/router";
import { authRouter, userRouter } from "../modules/accounts/router";
import { adminRouter } from "../modules/admin/router";
import { bidsRouter } from "../modules/bids/router";
import { billingRouter } from "../modules/billing/router";
import { boardsRouter } from "../modules/boards/router";
import { companiesRouter } from "../modules/companies/router";
import { dashboardRouter } from "../modules/dashboards/router";
import { documentsRouter } from "../modules/documents/router";
import { fxRouter } from "../modules/fx/router";
import { loadAlertsRouter, loadsRouter } from "../modules/loads/router";
import { mailRouter } from "../modules/mail/router";
import { messagesRouter } from "../modules/messages/router";
import { notificationsRouter } from "../modules/notifications/router";
import { paymentsRouter } from "../modules/payments/router";
import { payoutsRouter } from "../modules/payouts/router";
import { placesRouter } from "../modules/places/router";
import { platformRouter } from "../modules/platform/router";
import { rateConfirmationsRouter } from "../modules/rate-confirmations/router";
import { savedSearchesRouter } from "../modules/saved-searches/router";
import { shippingRouter } from "../modules/shipping/router";
import { smsRouter } from "../modules/sms/router";
import { storesRouter } from "../modules/stores/router";
import { tokensRouter } from "../modules/tokens/router";
import { trackingRouter } from "../modules/tracking/router";
import { driversRouter, tripsRouter } from "../modules/trips/router";
import { trucksRouter } from "../modules/trucks/router";
import { trustRouter } from "../modules/trust/router";
import { verificationRouter } from "../modules/verification/router";
import { webhooksRouter } from "../modules/webhooks/router";
import { createCallerFactory, createTRPCRouter } from "./init";

export const appRouter = createTRPCRouter({
  auth: authRouter,
  user: userRouter,
  accountData: accountDataRouter,
  platform: platformRouter,
  admin: adminRouter,
  fx: fxRouter,
  // A load's trip steps keep their `loads.*` paths (loads.pickup, …): the web app's offline queue replays them.
  loads: { ...loadsRouter, ...tripsRouter },
  bids: bidsRouter,
  drivers: driversRouter,
  tracking: trackingRouter,
  dashboard: dashboardRouter,
  messages: messagesRouter,
  documents: documentsRouter,
  rateConfirmations: rateConfirmationsRouter,
  places: placesRouter,
  shipping: shippingRouter,
  notifications: notificationsRouter,
  loadAlerts: loadAlertsRouter,
  savedSearches: savedSearchesRouter,
  boards: boardsRouter,
  stores: storesRouter,
  billing: billingRouter,
  payments: paymentsRouter,
  payouts: payoutsRouter,
  mail: mailRouter,
  sms: smsRouter,
  tokens: tokensRouter,
  verification: verificationRouter,
  companies: companiesRouter,
  trust: trustRouter,
  webhooks: webhooksRouter,
  trucks: trucksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
