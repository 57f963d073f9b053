// The SMS providers the configuration names, and which one a number goes through: Ethiopian numbers (+251) through
// AfroMessage, a local gateway with routes to both Ethiopian operators (Africa's Talking does not confirm Ethiopia),
// falling back to Twilio when AfroMessage is not configured; every other number through Twilio.
import type { TConfig } from "../../config";
import { createAfroMessageSender } from "./afromessage";
import { createTwilioSender } from "./twilio";
import type { TSmsSender } from "./types";

export type TSmsServices = {
  twilio: TSmsSender | null;
  afromessage: TSmsSender | null;
  /** The provider for a number (E.164), or null when none configured reaches it. */
  senderFor: (phone: string) => TSmsSender | null;
  /** Codes sent per rolling 24 hours across the deployment, at most (SMS_DAILY_LIMIT). */
  dailyLimit: number;
  /** Demo mode: the folder the SMS emulators write what they receive to (SMS_SANDBOX_DIR), for /dev/sms. */
  sandboxDir: string | null;
};

export const smsFrom = (c: Pick<TConfig, "sms" | "demo">): TSmsServices => {
  const { sms } = c;
  const twilio =
    sms.twilio.accountSid && sms.twilio.authToken && sms.twilio.from
      ? createTwilioSender({
          baseUrl: sms.twilio.apiBase,
          accountSid: sms.twilio.accountSid,
          authToken: sms.twilio.authToken,
          from: sms.twilio.from,
          timeoutMs: sms.timeoutMs,
        })
      : null;
  const afromessage =
    sms.afromessage.token && sms.afromessage.identifierId
      ? createAfroMessageSender({
          baseUrl: sms.afromessage.apiBase,
          token: sms.afromessage.token,
          identifierId: sms.afromessage.identifierId,
          sender: sms.afromessage.sender ?? "",
          timeoutMs: sms.timeoutMs,
        })
      : null;
  return {
    twilio,
    afromessage,
    senderFor: (phone) => (phone.startsWith("+251") ? (afromessage ?? twilio) : twilio),
    dailyLimit: sms.dailyLimit,
    sandboxDir: c.demo ? sms.sandboxDir : null,
  };
};
