// SMS emulators: a loopback Twilio (Messages API) and a loopback AfroMessage (single send), answering as the vendors
// document, with one shared phone book of what they delivered. Tests and demo mode read it over HTTP
// (GET /_emulator/messages?to=+2519…) on either server; demo mode also has each message written to a folder the
// server's /dev/sms page reads (every server process sees the same inbox).
//
// Twilio: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form To, From | MessagingServiceSid, Body; Basic auth
// AccountSid:AuthToken, else 401 {code: 20003, message: "Authenticate", more_info, status: 401}. A To that is not
// E.164 is 400 {code: 21211, message: "Invalid 'To' Phone Number: …"}; no Body 21602; no From 21603; a From that is
// not this account's number 21606. Success is 201 with the Message resource (sid SM + 32 hex, status "queued").
//
// AfroMessage: GET or POST /api/send (query or JSON: from, sender, to, message, callback); `Authorization: Bearer`
// token, else 401 {acknowledge: "error", response: {errors: ["Authorization failed"]}}. Refusals of the request come
// with HTTP 200 and acknowledge "error" (an unknown identifier id, a recipient that is not an Ethiopian mobile number,
// an empty message), as the real service does; success is {acknowledge: "success", response: {status: "Send",
// message_id, message, to}}.
//
// control.failNext(n, status) answers the next n sends of either server with that HTTP status (500, 429 with
// Retry-After) to test retries.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withControl } from "../notifiers/control";

export const SMS_SANDBOX = {
  twilio: { accountSid: `AC${"0".repeat(31)}1`, authToken: "twilio-sandbox-token", from: "+15005550006" },
  afromessage: { token: "afromessage-sandbox-token", identifierId: "mytess-sandbox-identifier", sender: "MyTess" },
} as const;

export type TDeliveredSms = {
  id: string;
  provider: "twilio" | "afromessage";
  from: string;
  to: string;
  body: string;
  receivedAt: number;
};

const hex = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");

const E164 = /^\+[1-9]\d{7,14}$/;
const ETHIOPIAN_MOBILE = /^(\+?251|0)?[79]\d{8}$/;

export type TSmsEmulatorOptions = { dir?: string | null; ports?: { twilio?: number; afromessage?: number } };

export const startSmsEmulators = (o: TSmsEmulatorOptions = {}) => {
  const messages: TDeliveredSms[] = [];
  let failing: { n: number; status: number } | null = null;
  if (o.dir) mkdirSync(o.dir, { recursive: true });
  const deliver = (m: TDeliveredSms) => {
    messages.push(m);
    if (o.dir) writeFileSync(join(o.dir, `${m.receivedAt}-${m.id}.json`), JSON.stringify(m));
  };
  const takeFailure = () => {
    if (!failing || failing.n <= 0) return null;
    failing.n -= 1;
    const status = failing.status;
    if (failing.n === 0) failing = null;
    return status;
  };

  const twilio = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
    const error = (status: number, code: number, message: string) =>
      Response.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status });
    if (!m) return error(404, 20404, "The requested resource was not found");
    if (req.method !== "POST") return error(405, 20004, "Method not allowed");
    const expected = `Basic ${Buffer.from(`${SMS_SANDBOX.twilio.accountSid}:${SMS_SANDBOX.twilio.authToken}`).toString("base64")}`;
    if (req.headers.get("authorization") !== expected || decodeURIComponent(m[1]!) !== SMS_SANDBOX.twilio.accountSid)
      return error(401, 20003, "Authenticate");
    const failure = takeFailure();
    if (failure === 429)
      return Response.json(
        {
          code: 20429,
          message: "Too Many Requests",
          more_info: "https://www.twilio.com/docs/errors/20429",
          status: 429,
        },
        { status: 429, headers: { "Retry-After": "1" } },
      );
    if (failure) return error(failure, 20500, "Internal Server Error");
    const form = new URLSearchParams(await req.text());
    const to = form.get("To") ?? "";
    const body = form.get("Body") ?? "";
    const from = form.get("From") ?? form.get("MessagingServiceSid") ?? "";
    if (!to) return error(400, 21604, "A 'To' phone number is required.");
    if (!E164.test(to)) return error(400, 21211, `Invalid 'To' Phone Number: ${to}`);
    if (!body) return error(400, 21602, "Message body is required.");
    if (!from) return error(400, 21603, "A 'From' phone number is required.");
    if (form.get("From") && from !== SMS_SANDBOX.twilio.from)
      return error(
        400,
        21606,
        `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`,
      );
    const sid = `SM${hex(16)}`;
    const now = Date.now();
    deliver({ id: sid, provider: "twilio", from, to, body, receivedAt: now });
    const date = new Date(now).toUTCString().replace("GMT", "+0000");
    return Response.json(
      {
        sid,
        account_sid: SMS_SANDBOX.twilio.accountSid,
        to,
        from: form.get("From"),
        messaging_service_sid: form.get("MessagingServiceSid"),
        body,
        status: "queued",
        num_segments: String(Math.max(1, Math.ceil(body.length / 153))),
        num_media: "0",
        direction: "outbound-api",
        api_version: "2010-04-01",
        price: null,
        price_unit: "USD",
        error_code: null,
        error_message: null,
        date_created: date,
        date_updated: date,
        date_sent: null,
        uri: `/2010-04-01/Accounts/${SMS_SANDBOX.twilio.accountSid}/Messages/${sid}.json`,
        subresource_uris: { media: `/2010-04-01/Accounts/${SMS_SANDBOX.twilio.accountSid}/Messages/${sid}/Media.json` },
      },
      { status: 201 },
    );
  };

  const afromessage = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const refused = (errors: string[], status = 200) =>
      Response.json({ acknowledge: "error", response: { errors } }, { status });
    if (url.pathname !== "/api/send") return refused(["Not found"], 404);
    if (req.headers.get("authorization") !== `Bearer ${SMS_SANDBOX.afromessage.token}`)
      return refused(["Authorization failed"], 401);
    const failure = takeFailure();
    if (failure) return refused(["Service temporarily unavailable"], failure);
    let q: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (req.method === "POST") {
      try {
        q = { ...q, ...((await req.json()) as Record<string, unknown>) };
      } catch {
        return refused(["Invalid request body"]);
      }
    }
    const str = (k: string) => (typeof q[k] === "string" ? (q[k] as string).trim() : "");
    if (str("from") && str("from") !== SMS_SANDBOX.afromessage.identifierId) return refused(["Invalid identifier id"]);
    const to = str("to");
    if (!ETHIOPIAN_MOBILE.test(to)) return refused([`Invalid phone number: ${to}`]);
    const message = str("message");
    if (!message) return refused(["Message is required"]);
    const id = hex(12);
    const e164 = `+251${to.slice(-9)}`;
    deliver({
      id,
      provider: "afromessage",
      from: str("sender") || SMS_SANDBOX.afromessage.sender,
      to: e164,
      body: message,
      receivedAt: Date.now(),
    });
    return Response.json({ acknowledge: "success", response: { status: "Send", message_id: id, message, to } });
  };

  const routes: Parameters<typeof withControl>[0] = [
    ["GET", /^\/_emulator\/messages$/, () => messages],
    [
      "POST",
      /^\/_emulator\/fail-next$/,
      (_, b) => {
        failing = { n: Number(b.n ?? 1), status: Number(b.status ?? 500) };
      },
    ],
  ];
  const control = async (req: Request, handle: (r: Request) => Promise<Response>) => {
    const u = new URL(req.url);
    // The phone book of one number, newest last: what a test reads.
    if (req.method === "GET" && u.pathname === "/_emulator/messages" && u.searchParams.get("to"))
      return Response.json(messages.filter((m) => m.to === u.searchParams.get("to")));
    return withControl(routes, handle)(req);
  };
  const servers = {
    twilio: Bun.serve({ port: o.ports?.twilio ?? 0, hostname: "127.0.0.1", fetch: (r) => control(r, twilio) }),
    afromessage: Bun.serve({
      port: o.ports?.afromessage ?? 0,
      hostname: "127.0.0.1",
      fetch: (r) => control(r, afromessage),
    }),
  };
  const urls = {
    twilio: `http://127.0.0.1:${servers.twilio.port}`,
    afromessage: `http://127.0.0.1:${servers.afromessage.port}`,
  };
  return {
    urls,
    messages,
    failNext: (n: number, status: number) => {
      failing = { n, status };
    },
    /** The environment that points MyTess's SMS adapters at these emulators. */
    env: (): Record<string, string> => ({
      TWILIO_API_BASE: urls.twilio,
      TWILIO_ACCOUNT_SID: SMS_SANDBOX.twilio.accountSid,
      TWILIO_AUTH_TOKEN: SMS_SANDBOX.twilio.authToken,
      TWILIO_FROM: SMS_SANDBOX.twilio.from,
      AFROMESSAGE_API_BASE: urls.afromessage,
      AFROMESSAGE_TOKEN: SMS_SANDBOX.afromessage.token,
      AFROMESSAGE_IDENTIFIER_ID: SMS_SANDBOX.afromessage.identifierId,
      AFROMESSAGE_SENDER: SMS_SANDBOX.afromessage.sender,
    }),
    stop: () => {
      servers.twilio.stop(true);
      servers.afromessage.stop(true);
    },
  };
};

export type TSmsEmulators = ReturnType<typeof startSmsEmulators>;

if (import.meta.main) {
  const e = startSmsEmulators({ ports: { twilio: 4141, afromessage: 4142 } });
  console.log("SMS emulators:", e.urls);
  console.log("Environment:", e.env());
}
