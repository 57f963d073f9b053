export type TNotifyChannel = "telegram" | "whatsapp" | "web_push";

/** Telegram buttons: `data` comes back as a callback query (Accept / Reject); `url` opens a link. */
export type TNotifyButton = { label: string; data: string } | { label: string; url: string };

/** An approved WhatsApp template that says the same thing, for when the 24-hour window is closed. */
export type TWhatsAppTemplate = { name: string; languageCode: string; bodyParams: string[] };

/**
 * A notification already rendered in the recipient's language. Adapters only carry it: they choose the channel's
 * format (HTML for Telegram, WhatsApp's markdown, the JSON our service worker reads) and never translate.
 */
export type TNotification = {
  title?: string;
  body: string;
  /** An absolute link to the page the notification is about. */
  url?: string;
  buttons?: TNotifyButton[];
  whatsappTemplate?: TWhatsAppTemplate;
  /** Web push: how soon the push service should wake the device, and how long it may hold the message. */
  urgency?: "very-low" | "low" | "normal" | "high";
  ttlSeconds?: number;
  /** Web push: a newer message with the same topic replaces an undelivered older one. */
  topic?: string;
};

export type TTelegramAddress = { chatId: number | string };
/**
 * `lastInboundAt` is when the user last wrote to us (epoch ms): WhatsApp accepts free text only within 24 hours of
 * it, and only approved templates otherwise.
 */
/**
 * A WhatsApp user: by phone number, or (a user with a username, whose number Meta does not show) by the business-scoped
 * user id Meta sent with their message. Only the Cloud API can write to a user id.
 */
export type TWhatsAppAddress = ({ phone: string; userId?: undefined } | { userId: string; phone?: undefined }) & {
  lastInboundAt?: number | null;
};
/** The browser's PushSubscription as it sent it to us. */
export type TPushAddress = { endpoint: string; keys: { p256dh: string; auth: string } };

export type TAddressOf = { telegram: TTelegramAddress; whatsapp: TWhatsAppAddress; web_push: TPushAddress };

/**
 * What became of one send. The job worker acts on `status`:
 * - delivered: the service accepted it (`messageId` is the service's id, for edits and delivery receipts);
 * - retry: a passing condition (rate limit, outage, network); run the job again no sooner than `retryAfterSeconds`
 *   when the service said so, otherwise with the worker's own backoff;
 * - gone: this address can never receive again (push subscription expired, bot blocked, number not on WhatsApp):
 *   delete the subscription or turn the channel off for the user, and do not retry;
 * - failed: our side is wrong (credentials, template, payload); retrying the same job will not help, keep it visible.
 * `reason` is for operators' logs and the dead-job list, in English, and names the system.
 */
export type TSendResult =
  | { status: "delivered"; messageId?: string }
  | { status: "retry"; reason: string; retryAfterSeconds?: number }
  | { status: "gone"; reason: string }
  | { status: "failed"; reason: string };

/** One channel's adapter. `send` never rejects: every outcome, network failures included, is a TSendResult. */
export type TNotifier<C extends TNotifyChannel = TNotifyChannel> = {
  channel: C;
  name: string;
  /** Emulators and sandbox hosts are labelled "Sandbox" in the interface. */
  sandbox: boolean;
  send: (to: TAddressOf[C], notification: TNotification) => Promise<TSendResult>;
};

/** Plain text for chat channels: title, body and link on their own lines. */
export const plainLines = (n: TNotification) => [n.title, n.body, n.url].filter((s): s is string => !!s?.trim());
