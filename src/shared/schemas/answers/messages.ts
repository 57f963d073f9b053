import { z } from "zod";
import { ZMessage } from "./common";

export const ZMessagesListAnswer = z.object({
  loadId: z.number(),
  driverId: z.number(),
  with: z.object({ id: z.number(), name: z.string() }).nullable(),
  closed: z.enum(["cancelled", "awarded_to_other"]).nullable(),
  messages: z.array(ZMessage),
});
export const ZMessagesConversationsAnswer = z.array(
  z.object({ driverId: z.number(), driverName: z.string(), unread: z.number(), lastMessage: ZMessage.nullable() }),
);
