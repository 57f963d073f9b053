import { adminRouter } from "../routers/admin/router";
import { loadAlertsRouter } from "../routers/alerts/router";
import { authRouter } from "../routers/auth/router";
import { bidsRouter } from "../routers/bids/router";
import { dashboardRouter } from "../routers/dashboard/router";
import { driversRouter } from "../routers/drivers/router";
import { ecommerceRouter } from "../routers/ecommerce/router";
import { loadsRouter } from "../routers/loads/router";
import { marketplacesRouter } from "../routers/marketplaces/router";
import { messagesRouter } from "../routers/messages/router";
import { messagingRouter } from "../routers/messaging/router";
import { notificationsRouter } from "../routers/notifications/router";
import { placesRouter } from "../routers/places/router";
import { platformRouter } from "../routers/platform/router";
import { pushRouter } from "../routers/push/router";
import { shippingRouter } from "../routers/shipping/router";
import { subscriptionRouter } from "../routers/subscription/router";
import { userRouter } from "../routers/user/router";
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
