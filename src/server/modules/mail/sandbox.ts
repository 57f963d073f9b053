// Demo mode's inbox: the mails the launcher's mail catcher received, read from the folder it writes them to (one file
// per mail), so every server process shows the same inbox. Outside demo mode there is no folder and no inbox.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AppError } from "../../errors";

const ZCaught = z.object({
  id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  receivedAt: z.number(),
});
export type TSandboxMail = z.infer<typeof ZCaught>;

/** How many of the newest items a demo inbox shows. */
const INBOX_SIZE = 50;

/**
 * The newest items a demo emulator wrote to `dir`, one JSON file each, newest first; a file that does not parse as
 * `schema` is left out. Shared by the demo mail and SMS inboxes.
 */
export const newestSandboxItems = <T>(dir: string, schema: z.ZodType<T>): T[] => {
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
        return [schema.parse(JSON.parse(readFileSync(join(dir, n), "utf8")))];
      } catch {
        return [];
      }
    });
};

export const sandboxInbox = (dir: string | null): TSandboxMail[] => {
  if (!dir)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.mail.noSandbox", message: "The demo inbox exists in demo mode only" },
    );
  return newestSandboxItems(dir, ZCaught);
};
