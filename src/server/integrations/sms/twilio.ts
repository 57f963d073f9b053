// Twilio's Messages API (twilio-go's AccountsMessagesApi documentation):
//
//   POST {https://api.twilio.com}/2010-04-01/Accounts/{AccountSid}/Messages.json
//   Authorization: Basic base64(AccountSid:AuthToken)
//   form: To (E.164), From (a Twilio number) or MessagingServiceSid (MG…), Body
//   → 201 {sid: "SM…", status: "queued" | "accepted", to, from, body, error_code: null, …}
//
// Errors are JSON {code, message, more_info, status}: 401 with 20003 (our credentials: the operator's to fix, so the
// job retries and stays visible), 400 with 21211 / 21614 / 21408 / 21610 (this number cannot get SMS from us: refused
// for good), 429 with 20429 (too many requests: retried after Retry-After). Twilio has no idempotency key for
// messages; the job records what it sent, so a retry after a recorded send sends nothing (see modules/accounts).
import { z } from "zod";
import {
  exchange,
  jsonOrNull,
  parseWire,
  plainReason,
  readJson,
  retryAfterSeconds,
  serviceFailed,
  serviceLimiting,
  trimBase,
} from "../http/kit";
import { isLoopbackUrl } from "../payments/http";
import { SMS_PROVIDER_NAMES, type TSmsSender } from "./types";

const SERVICE = SMS_PROVIDER_NAMES.twilio;

/** Twilio error codes that mean this recipient cannot get this message from us; retrying changes nothing. */
export const TWILIO_PERMANENT_CODES = new Set([21211, 21214, 21408, 21612, 21614, 21610, 21217]);

const ZError = z.object({ code: z.number().nullish(), message: z.string().nullish() });
const ZMessage = z.object({ sid: z.string(), status: z.string() });

export type TTwilioSettings = {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** A Twilio number (+1…) or a Messaging Service (MG…). */
  from: string;
  timeoutMs: number;
};

export const createTwilioSender = (s: TTwilioSettings): TSmsSender => {
  const base = trimBase(s.baseUrl);
  const auth = `Basic ${Buffer.from(`${s.accountSid}:${s.authToken}`).toString("base64")}`;
  return {
    provider: "twilio",
    label: isLoopbackUrl(base) ? "sandbox" : "active",
    send: async (sms) => {
      const form = new URLSearchParams({ To: sms.to, Body: sms.body });
      form.set(s.from.startsWith("MG") ? "MessagingServiceSid" : "From", s.from);
      const res = await exchange(
        SERVICE,
        `${base}/2010-04-01/Accounts/${encodeURIComponent(s.accountSid)}/Messages.json`,
        {
          method: "POST",
          headers: {
            Authorization: auth,
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "application/json",
          },
          body: form.toString(),
        },
        s.timeoutMs,
        { trusted: [base] },
      );
      if (res.status >= 200 && res.status < 300) {
        const m = parseWire(SERVICE, ZMessage, readJson(SERVICE, res));
        if (m.status === "failed" || m.status === "undelivered")
          return { status: "refused", provider: "twilio", reason: `message ${m.status}` };
        return { status: "sent", provider: "twilio", messageId: m.sid };
      }
      const err = ZError.safeParse(jsonOrNull(res.text));
      const code = err.success ? (err.data.code ?? null) : null;
      const reason = (err.success ? err.data.message : null) ?? plainReason(res.text) ?? `HTTP ${res.status}`;
      if (res.status === 429) throw serviceLimiting(SERVICE, retryAfterSeconds(res.headers));
      if (res.status === 400 && code !== null && TWILIO_PERMANENT_CODES.has(code))
        return { status: "refused", provider: "twilio", reason: `${code} ${reason}` };
      throw serviceFailed(
        SERVICE,
        code === null ? `${reason} (HTTP ${res.status})` : `${code} ${reason} (HTTP ${res.status})`,
      );
    },
  };
};
