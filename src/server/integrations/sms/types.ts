// One interface for every SMS provider: send one text to one number and say what became of it. A passing failure (the
// provider down, busy, limiting us, our credentials refused while the operator fixes them) throws, so the job that
// sends retries; a refusal of this message for good (a number the provider says cannot be reached) is answered, so the
// job ends without retrying.

export type TSmsProviderId = "twilio" | "afromessage";

/** The providers' names, as logs and errors show them. */
export const SMS_PROVIDER_NAMES: Record<TSmsProviderId, string> = { twilio: "Twilio", afromessage: "AfroMessage" };

export type TSms = {
  /** E.164 (+251911234567). */
  to: string;
  body: string;
};

export type TSmsResult =
  | { status: "sent"; provider: TSmsProviderId; messageId: string }
  | { status: "refused"; provider: TSmsProviderId; reason: string };

export type TSmsSender = {
  provider: TSmsProviderId;
  /** "sandbox" when the base URL is a loopback emulator, "active" otherwise. */
  label: "active" | "sandbox";
  send: (sms: TSms) => Promise<TSmsResult>;
};
