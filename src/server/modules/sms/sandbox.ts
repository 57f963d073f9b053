// Demo mode's SMS inbox: the messages the launcher's SMS emulators (Twilio and AfroMessage Sandboxes) delivered, read
// from the folder they write them to (one file per message), so every server process shows the same inbox. Outside
// demo mode there is no folder and no inbox.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AppError } from "../../errors";

export const ZSandboxSms = z.object({
  id: z.string(),
  provider: z.enum(["twilio", "afromessage"]),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  receivedAt: z.number(),
});
export type TSandboxSms = z.infer<typeof ZSandboxSms>;

/** How many of the newest messages the page shows. */
const INBOX_SIZE = 50;

export const sandboxSmsInbox = (dir: string | null): TSandboxSms[] => {
  if (!dir)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.sms.noSandbox", message: "The demo SMS inbox exists in demo mode only" },
    );
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  // Names start with the time received, so the newest sort last.
  return names
    .sort()
    .slice(-INBOX_SIZE)
    .reverse()
    .flatMap((n) => {
      try {
        return [ZSandboxSms.parse(JSON.parse(readFileSync(join(dir, n), "utf8")))];
      } catch {
        return [];
      }
    });
};
