import { z } from "zod";

export const ZMailSandboxInboxAnswer = z.object({
  mails: z.array(
    z.object({
      id: z.string(),
      from: z.string(),
      to: z.array(z.string()),
      subject: z.string(),
      text: z.string(),
      receivedAt: z.number(),
    }),
  ),
});
