// AfroMessage (afromessage.com, an Ethiopian SMS gateway reaching Ethio Telecom and Safaricom Ethiopia numbers), as its
// developer documentation and SDKs describe the single-send API:
//
//   POST {https://api.afromessage.com}/api/send
//   Authorization: Bearer <token>
//   JSON {from: <identifier id>, sender: <sender name>, to: "+2519…", message, callback?}
//   → 200 {acknowledge: "success", response: {status: "Send", message_id, message, to}}
//   → 200 {acknowledge: "error", response: {errors: ["…"]}}
//
// What hurts: a refusal comes back with HTTP 200 and `acknowledge: "error"`, so the status alone says nothing; the
// body decides. A refused token is a 401 (or such an error body naming the token): the operator's to fix, so the job
// retries. Errors about the recipient mean this number cannot get the message: refused for good.
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

const SERVICE = SMS_PROVIDER_NAMES.afromessage;

const ZAnswer = z.object({
  acknowledge: z.string(),
  response: z
    .looseObject({
      message_id: z.union([z.string(), z.number()]).nullish(),
      errors: z.array(z.unknown()).nullish(),
    })
    .nullish(),
});

export type TAfroMessageSettings = {
  baseUrl: string;
  token: string;
  /** The identifier id of the sending short code or name (AfroMessage's `from`). */
  identifierId: string;
  /** The approved sender name (AfroMessage's `sender`); empty for the account's default. */
  sender: string;
  timeoutMs: number;
};

const errorsOf = (body: unknown) => {
  const errs = (body as { response?: { errors?: unknown } } | null)?.response?.errors;
  return Array.isArray(errs) ? errs.filter((e): e is string => typeof e === "string").join("; ") : "";
};

export const createAfroMessageSender = (s: TAfroMessageSettings): TSmsSender => {
  const base = trimBase(s.baseUrl);
  return {
    provider: "afromessage",
    label: isLoopbackUrl(base) ? "sandbox" : "active",
    send: async (sms) => {
      const res = await exchange(
        SERVICE,
        `${base}/api/send`,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${s.token}`,
            "Content-Type": "application/json",
            Accept: "application/json",
          },
          body: JSON.stringify({
            from: s.identifierId,
            ...(s.sender ? { sender: s.sender } : {}),
            to: sms.to,
            message: sms.body,
          }),
        },
        s.timeoutMs,
        { trusted: [base] },
      );
      if (res.status === 429) throw serviceLimiting(SERVICE, retryAfterSeconds(res.headers));
      if (res.status < 200 || res.status >= 300) {
        const reason = errorsOf(jsonOrNull(res.text)) || plainReason(res.text) || `HTTP ${res.status}`;
        throw serviceFailed(SERVICE, `${reason} (HTTP ${res.status})`);
      }
      const answer = parseWire(SERVICE, ZAnswer, readJson(SERVICE, res));
      if (answer.acknowledge === "success" && answer.response?.message_id != null)
        return { status: "sent", provider: "afromessage", messageId: String(answer.response.message_id) };
      const reason = errorsOf(answer) || `acknowledge ${answer.acknowledge}`;
      // Only a complaint about the recipient is this message's end; anything else (token, balance, sender) may pass.
      if (/\b(phone|number|recipient|to)\b/i.test(reason) && !/token|auth/i.test(reason))
        return { status: "refused", provider: "afromessage", reason };
      throw serviceFailed(SERVICE, reason);
    },
  };
};
