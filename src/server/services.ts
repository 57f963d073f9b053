// What procedures and jobs reach outside the database through, built once per process from the configuration and
// shared by every door and role in it: the web role and the worker of one process use the same carriers, notifiers,
// boards and stores, so token caches and hourly budgets are kept once.
import type { TConfig } from "./config";
import { boardServicesFrom, type TBoardServices } from "./integrations/boards/services";
import { carriersFrom, type TCarrierRegistry } from "./integrations/carriers/registry";
import type { TFxSource } from "./integrations/fx/nbe";
import { fxSourceFrom } from "./integrations/fx/registry";
import { mailerFrom, type TMailer } from "./integrations/mail/smtp";
import { notifiersFrom, type TNotifierRegistry, vapidKeyFileFor } from "./integrations/notifiers/registry";
import { whatsappWebSecretFileFor } from "./integrations/notifiers/whatsapp-web";
import { paymentsFrom } from "./integrations/payments/registry";
import type { TPaymentServices } from "./integrations/payments/services";
import { smsFrom, type TSmsServices } from "./integrations/sms/registry";
import { storeServicesFor, type TStoreServices } from "./integrations/stores/services";
import { logger, type TLogger } from "./logger";
import { createSecretBox, secretKeyFileFor, secretKeyFrom, type TSecretBox } from "./secrets";
import { storageFrom, type TStorage } from "./storage/storage";

export type TServices = {
  /** The parcel carriers, as configured (real hosts, sandboxes or local emulators). */
  carriers: TCarrierRegistry;
  /** Notification channels (web push, Telegram, WhatsApp), as configured; the VAPID public key. */
  notifiers: TNotifierRegistry;
  /** External load boards: adapters per configuration, the secret box for their credentials, time limits. */
  boards: TBoardServices;
  /** Online stores (Shopify, Amazon, Alibaba): adapters per integration, sharing the boards' secret box. */
  stores: TStoreServices;
  /** Stripe and Chapa, as configured. */
  payments: TPaymentServices;
  /** Where the day's exchange rates come from (FX_SOURCE_URL). */
  fx: TFxSource;
  /** Mail through SMTP (null: SMTP_URL unset, nothing is sent); demo mode's mail catcher folder for /dev/mail. */
  mail: { mailer: TMailer | null; sandboxDir: string | null };
  /** SMS providers (Twilio, AfroMessage for +251), the deployment's daily limit, demo mode's SMS folder for /dev/sms. */
  sms: TSmsServices;
  /** The server key's box (the boards' one): HMACs of one-time codes and tokens derived from stored ids. */
  secrets: TSecretBox;
  /** Uploaded files (load documents): a folder beside the database, or an S3-compatible bucket. */
  storage: TStorage;
  log: TLogger;
  /**
   * Demo mode's Sandbox webhook receiver: its origin, the only private address an endpoint may name, and the folder it
   * writes what it receives to (/dev/webhooks); null outside demo mode.
   */
  webhooks: { sandboxUrl: string | null; sandboxDir: string | null };
  /**
   * The site's public origin (PUBLIC_URL, else this server's own address), for links when no HTTP request gives one;
   * createServices sets it.
   */
  publicOrigin?: string;
};

/**
 * The services of a process, from its configuration. Key files (the secret box's key, the VAPID pair, the WhatsApp Web
 * secret) live beside the database unless the configuration gives them. `overrides` replace a part (tests give their
 * own emulators and short time limits); stores follow the boards they are given.
 */
export const createServices = (config: TConfig, overrides: Partial<TServices> = {}): TServices => {
  const boards =
    overrides.boards ??
    boardServicesFrom(config, createSecretBox(secretKeyFrom(config.secretKey, secretKeyFileFor(config.databasePath))));
  return {
    carriers: overrides.carriers ?? carriersFrom(config.carriers),
    notifiers:
      overrides.notifiers ??
      notifiersFrom(config, {
        vapidKeyFile: vapidKeyFileFor(config.databasePath),
        whatsappWebSecretFile: whatsappWebSecretFileFor(config.databasePath),
      }),
    boards,
    stores: overrides.stores ?? storeServicesFor(boards, config.stores),
    payments: overrides.payments ?? paymentsFrom(config.payments),
    fx: overrides.fx ?? fxSourceFrom(config.fx),
    mail: overrides.mail ?? { mailer: mailerFrom(config), sandboxDir: config.demo ? config.mail.sandboxDir : null },
    sms: overrides.sms ?? smsFrom(config),
    secrets: overrides.secrets ?? boards.secrets,
    storage: overrides.storage ?? storageFrom(config.storage),
    log: overrides.log ?? logger,
    webhooks: overrides.webhooks ?? {
      sandboxUrl: config.demo ? config.webhooks.sandboxUrl : null,
      sandboxDir: config.demo ? config.webhooks.sandboxDir : null,
    },
    publicOrigin: overrides.publicOrigin ?? config.publicUrl ?? `http://localhost:${config.port}`,
  };
};
