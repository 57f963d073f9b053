// Demo mode's SMS inbox: the messages the launcher's SMS emulators (Twilio and AfroMessage Sandboxes) delivered, read
// from the folder they write them to (one file per message), so every server process shows the same inbox. Outside
// demo mode there is no folder and no inbox.
import { z } from "zod";
import { AppError } from "../../errors";
import { newestSandboxItems } from "../mail/sandbox";

export const ZSandboxSms = z.object({
  id: z.string(),
  provider: z.enum(["twilio", "afromessage"]),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  receivedAt: z.number(),
});
export type TSandboxSms = z.infer<typeof ZSandboxSms>;

export const sandboxSmsInbox = (dir: string | null): TSandboxSms[] => {
  if (!dir)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.sms.noSandbox", message: "The demo SMS inbox exists in demo mode only" },
    );
  return newestSandboxItems(dir, ZSandboxSms);
};
