import { AppError } from "../../errors";
import { bodyObject, idParam, route, type TRestRoute } from "./route";

/**
 * The REST paths of the API (fixed: callers and the web app's offline queue use them), each a thin adapter over one
 * procedure.
 */
export const REST_ROUTES: TRestRoute[] = [
  route("POST", "/api/auth/register", (c, r) => c.auth.register(bodyObject(r) as never), 201, { anonymousBody: true }),
  route("POST", "/api/auth/login", (c, r) => c.auth.login(bodyObject(r) as never), 200, { anonymousBody: true }),
  route("GET", "/api/auth/user", async (c) => {
    const user = await c.auth.me();
    if (!user)
      throw new AppError(
        "UNAUTHORIZED",
        /*i18n*/ {
          id: "error.auth.unauthorized",
          comment: "Error answer: the request needs a signed-in user",
          message: "Unauthorized",
        },
      );
    return { user };
  }),
  route("GET", "/api/subscription/status", (c) => c.billing.status()),
  route("GET", "/api/subscription/prices", (c) => c.billing.prices()),
  route("POST", "/api/subscription/checkout", (c, r) => c.billing.checkout(bodyObject(r) as never)),
  route("POST", "/api/subscription/confirm", (c, r) => c.billing.confirm(bodyObject(r) as never)),
  route("POST", "/api/subscription/cancel", (c, r) => c.billing.cancel(bodyObject(r) as never)),
  route("GET", "/api/subscription/payments", (c) => c.billing.payments()),
  route("POST", "/api/subscription/portal", (c) => c.billing.portal()),
  route("PUT", "/api/user/language", (c, r) => c.user.updateLanguage(bodyObject(r) as never)),
  route("PUT", "/api/user/currency", (c, r) => c.user.updateCurrency(bodyObject(r) as never)),
  route("PUT", "/api/user/calendar", (c, r) => c.user.updateCalendar(bodyObject(r) as never)),
  route("PUT", "/api/user/profile", (c, r) => c.user.updateProfile(bodyObject(r) as never)),
  route("GET", "/api/platform-stats", (c) => c.platform.stats()),
  route("GET", "/api/fx-rates", (c) => c.platform.fxRates()),

  // Loads
  route("GET", "/api/loads", async (c, r) => (await c.loads.search(r.query as never)).items),
  route("GET", "/api/loads/stats", (c, r) => c.loads.stats(r.query as never)),
  route("POST", "/api/loads", (c, r) => c.loads.create(bodyObject(r) as never), 201),
  route("GET", "/api/loads/shipper", (c) => c.loads.mine()),
  route("GET", "/api/loads/:id", (c, r) => c.loads.byId({ loadId: idParam(r) })),
  route("GET", "/api/loads/:id/preview", (c, r) => c.loads.preview({ loadId: idParam(r) })),
  route("POST", "/api/loads/:id/pickup", (c, r) => c.loads.pickup({ loadId: idParam(r) })),
  route("POST", "/api/loads/:id/deliver", (c, r) => c.loads.deliver({ loadId: idParam(r) })),
  route("POST", "/api/loads/:id/complete", (c, r) => c.loads.complete({ loadId: idParam(r) })),
  route("POST", "/api/loads/:id/cancel", (c, r) => c.loads.cancel({ ...bodyObject(r), loadId: idParam(r) } as never)),
  route("POST", "/api/loads/:id/rating", (c, r) => c.loads.rate({ ...bodyObject(r), loadId: idParam(r) } as never)),

  // The trip's track
  route("POST", "/api/loads/:id/positions", (c, r) =>
    c.tracking.record({ ...bodyObject(r), loadId: idParam(r) } as never),
  ),
  route("GET", "/api/loads/:id/track", (c, r) => c.tracking.track({ loadId: idParam(r) })),

  // Bids
  route("GET", "/api/loads/:id/bids", (c, r) => c.bids.forLoad({ loadId: idParam(r) })),
  route("POST", "/api/loads/:id/bids", (c, r) => c.bids.place({ ...bodyObject(r), loadId: idParam(r) } as never), 201),
  route("GET", "/api/bids/driver", (c) => c.bids.mine()),
  route("POST", "/api/bids/:id/accept", (c, r) => c.bids.accept({ bidId: idParam(r) })),
  route("POST", "/api/bids/:id/reject", (c, r) => c.bids.reject({ bidId: idParam(r) })),
  route("DELETE", "/api/bids/:id", (c, r) => c.bids.withdraw({ bidId: idParam(r) })),

  // Conversations
  route("GET", "/api/loads/:id/messages", (c, r) =>
    c.messages.list({ loadId: idParam(r), driverId: r.query.driverId ? Number(r.query.driverId) : undefined }),
  ),
  route(
    "POST",
    "/api/loads/:id/messages",
    (c, r) => c.messages.send({ ...bodyObject(r), loadId: idParam(r) } as never),
    201,
  ),
  route("GET", "/api/loads/:id/conversations", (c, r) => c.messages.conversations({ loadId: idParam(r) })),

  // Drivers and dashboards
  route("POST", "/api/drivers/location", (c, r) => c.drivers.updateLocation(bodyObject(r) as never)),
  route("PUT", "/api/drivers/availability", (c, r) => c.drivers.setAvailability(bodyObject(r) as never)),
  route("GET", "/api/drivers/stats", (c) => c.drivers.stats()),
  route("GET", "/api/drivers/trips", (c) => c.drivers.trips()),
  route("GET", "/api/dashboard", (c) => c.dashboard.home()),
  // Parcel shipping
  route("POST", "/api/shipping/rates", (c, r) => c.shipping.rates(bodyObject(r) as never)),
  // One parameter name per path segment (the router's rule): the first segment is the number, or the carrier.
  route("GET", "/api/shipping/track/:first", (c, r) => c.shipping.track({ trackingNumber: r.params.first ?? "" })),
  route("GET", "/api/shipping/track/:first/:trackingNumber", (c, r) =>
    c.shipping.track({ trackingNumber: r.params.trackingNumber ?? "", carrier: r.params.first as never }),
  ),
  route("GET", "/api/shipping/carriers", (c) => c.shipping.carriers()),
  route("GET", "/api/shipping/shipments", (c) => c.shipping.shipments()),
  route("POST", "/api/shipping/shipments", (c, r) => c.shipping.saveShipment(bodyObject(r) as never), 201),
  route("DELETE", "/api/shipping/shipments/:id", (c, r) => c.shipping.deleteShipment({ id: idParam(r) })),
  // Web push
  route("GET", "/api/push/vapid-key", (c) => c.notifications.vapidKey()),
  route("POST", "/api/push/subscribe", (c, r) => c.notifications.subscribePush(bodyObject(r) as never), 201),
  route("DELETE", "/api/push/subscribe", (c, r) => c.notifications.unsubscribePush(bodyObject(r) as never)),
  route("POST", "/api/push/test", (c, r) => c.notifications.testPush(bodyObject(r) as never)),
  route("GET", "/api/push/preferences", (c) => c.notifications.pushPreferences()),
  route("PUT", "/api/push/preferences", (c, r) => c.notifications.savePushPreferences(bodyObject(r) as never)),
  route("GET", "/api/push/notifications", (c) => c.notifications.history()),

  // The bell
  route("GET", "/api/notifications", (c, r) => c.notifications.list(r.query as never)),
  route("GET", "/api/notifications/unread-count", (c) => c.notifications.unreadCount()),
  route("POST", "/api/notifications/read", (c, r) => c.notifications.markRead(bodyObject(r) as never)),
  route("POST", "/api/notifications/read-all", (c) => c.notifications.markAllRead()),

  // Messaging (WhatsApp, Telegram)
  route("GET", "/api/messaging/preferences", (c) => c.notifications.messagingPreferences()),
  route("PUT", "/api/messaging/preferences", (c, r) =>
    c.notifications.saveMessagingPreferences(bodyObject(r) as never),
  ),
  route("POST", "/api/messaging/whatsapp/send", (c, r) => c.notifications.whatsappTest(bodyObject(r) as never)),
  route("POST", "/api/messaging/telegram/send", (c, r) => c.notifications.telegramTest(bodyObject(r) as never)),
  route("POST", "/api/messaging/whatsapp/code", (c, r) => c.notifications.whatsappSendCode(bodyObject(r) as never)),
  route("POST", "/api/messaging/whatsapp/verify", (c, r) => c.notifications.whatsappVerify(bodyObject(r) as never)),
  // External load boards
  // Saved lanes, before /api/marketplaces/:id so "lanes" is never read as a configuration's id.
  route("GET", "/api/marketplaces/lanes", (c) => c.boards.lanes()),
  route("POST", "/api/marketplaces/lanes", (c, r) => c.boards.createLane(bodyObject(r) as never), 201),
  route("PUT", "/api/marketplaces/lanes/:id", (c, r) =>
    c.boards.updateLane({ ...bodyObject(r), id: idParam(r) } as never),
  ),
  route("DELETE", "/api/marketplaces/lanes/:id", (c, r) => c.boards.deleteLane({ id: idParam(r) })),
  route("GET", "/api/marketplaces", (c) => c.boards.list()),
  route("POST", "/api/marketplaces", (c, r) => c.boards.create(bodyObject(r) as never), 201),
  route("PUT", "/api/marketplaces/:id", (c, r) => c.boards.update({ ...bodyObject(r), id: idParam(r) } as never)),
  route("DELETE", "/api/marketplaces/:id", (c, r) => c.boards.delete({ id: idParam(r) })),
  route("POST", "/api/marketplaces/:id/test", (c, r) => c.boards.test({ id: idParam(r) })),
  route("POST", "/api/marketplaces/:id/connect", (c, r) => c.boards.connect({ id: idParam(r) })),
  route(
    "POST",
    "/api/marketplaces/:id/search",
    async (c, r) => (await c.boards.search({ ...bodyObject(r), id: idParam(r) } as never)).results,
  ),
  route("GET", "/api/marketplaces/sync-runs", (c) => c.boards.history({})),
  // E-commerce
  route("GET", "/api/ecommerce/integrations", (c) => c.stores.integrations()),
  route("POST", "/api/ecommerce/integrations", (c, r) => c.stores.createIntegration(bodyObject(r) as never), 201),
  route("PUT", "/api/ecommerce/integrations/:id", (c, r) =>
    c.stores.updateIntegration({ ...bodyObject(r), id: idParam(r) } as never),
  ),
  route("DELETE", "/api/ecommerce/integrations/:id", (c, r) => c.stores.deleteIntegration({ id: idParam(r) })),
  route("POST", "/api/ecommerce/integrations/:id/test", (c, r) => c.stores.testIntegration({ id: idParam(r) })),
  route("POST", "/api/ecommerce/integrations/:id/sync", (c, r) => c.stores.syncIntegration({ id: idParam(r) })),
  route("GET", "/api/ecommerce/orders", (c, r) => c.stores.orders(r.query as never)),
  route("GET", "/api/ecommerce/orders/:id/draft", (c, r) => c.stores.orderDraft({ id: idParam(r) })),
  route("POST", "/api/ecommerce/orders/:id/convert", (c, r) => {
    const body = bodyObject(r);
    return c.stores.convert({ id: idParam(r), ...(body.load ? { load: body.load } : {}) } as never);
  }),
  route("GET", "/api/sync/status", (c) => c.boards.syncStatus()),
  route("POST", "/api/sync/manual", (c) => c.boards.syncManual({})),
  route("GET", "/api/messaging/load-alerts", (c) => c.loadAlerts.get()),
  route("PUT", "/api/messaging/load-alerts", (c, r) => c.loadAlerts.save(bodyObject(r) as never)),
  route("GET", "/api/places", (c, r) =>
    c.places.search({ q: r.query.q ?? "", limit: r.query.limit ? Number(r.query.limit) : 8 }),
  ),
];
