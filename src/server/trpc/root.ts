import { authRouter } from "../modules/accounts/router";
import { userRouter } from "../modules/accounts/user-router";
import { adminRouter } from "../modules/admin/router";
import { bidsRouter } from "../modules/bids/router";
import { subscriptionRouter } from "../modules/billing/router";
import { marketplacesRouter } from "../modules/boards/router";
import { dashboardRouter } from "../modules/dashboards/router";
import { loadAlertsRouter } from "../modules/loads/alerts-router";
import { loadsRouter } from "../modules/loads/router";
import { messagesRouter } from "../modules/messages/router";
import { messagingRouter } from "../modules/notifications/messaging-router";
import { pushRouter } from "../modules/notifications/push-router";
import { notificationsRouter } from "../modules/notifications/router";
import { placesRouter } from "../modules/places/router";
import { platformRouter } from "../modules/platform/router";
import { shippingRouter } from "../modules/shipping/router";
import { ecommerceRouter } from "../modules/stores/router";
import { driversRouter } from "../modules/trips/router";
import { createCallerFactory, createTRPCRouter } from "./init";

export const appRouter = createTRPCRouter({
  auth: authRouter,
  user: userRouter,
  platform: platformRouter,
  admin: adminRouter,
  loads: loadsRouter,
  bids: bidsRouter,
  drivers: driversRouter,
  dashboard: dashboardRouter,
  messages: messagesRouter,
  places: placesRouter,
  shipping: shippingRouter,
  push: pushRouter,
  messaging: messagingRouter,
  notifications: notificationsRouter,
  loadAlerts: loadAlertsRouter,
  marketplaces: marketplacesRouter,
  ecommerce: ecommerceRouter,
  subscription: subscriptionRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
