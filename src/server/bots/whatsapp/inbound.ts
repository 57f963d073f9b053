// Messages people send to the MyTess WhatsApp number (Cloud API webhook, or the WhatsApp Web bridge): the same text
// commands as the Telegram bot, for the account that proved that number with a code (an unverified number acts for no
// one), answered through the WhatsApp notifier. Writing to us also opens WhatsApp's 24-hour window for free-text
// alerts, so the time is recorded. A message id already handled (a re-delivery, a replayed request) does nothing.
// A user with a WhatsApp username may write without their number (Meta sends only a business-scoped user id): such a
// sender is linked to no account, since a number is linked by the code sent to it; the reply, sent to the user id
// (which the Cloud API accepts within the 24-hour window), says how to link a number.
import { eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { messagingPreferences } from "../../../../db/tables";
import { i18n } from "../../i18n";
import type { TWhatsAppInbound } from "../../integrations/notifiers/whatsapp-webhook";
import { firstDelivery } from "../../modules/notifications/inbound-updates";
import { linkedAccount } from "../../modules/notifications/telegram-link";
import type { TServices } from "../../services";
import {
  bidCommand,
  counterAnswerCommand,
  helpText,
  loadsCommand,
  notLinkedText,
  offersCommand,
  parseCommand,
  type TBotReply,
  trackCommand,
} from "../commands";

type TDeps = { db: TDb; services: TServices; baseUrl: string };

/** WhatsApp text has no inline buttons: a Bid button becomes the line that says how to bid, already in the text. */
const asText = (r: TBotReply) => r.text;

/** For a sender Meta names by user id only: their number is hidden, so no account can be theirs. */
export const usernameOnlyText = () => {
  i18n.activate("en");
  return i18n._({
    id: "bot.notLinked.whatsappUsername",
    message:
      "Your WhatsApp username hides your phone number from us, so this chat is not linked to a MyTess account. In MyTess, open Messaging, enter your WhatsApp number and confirm it with the code we send to it. Alerts then come to that number, and commands work from it.",
  });
};

export const answerWhatsApp = async (
  deps: TDeps,
  m: Pick<TWhatsAppInbound, "from" | "userId" | "messageId" | "at" | "text" | "buttonPayload">,
  source: "whatsapp" | "whatsapp-web",
) => {
  if (!(await firstDelivery(deps.db, source, m.messageId))) return { sent: false, duplicate: true };
  const whatsapp = deps.services.notifiers.get("whatsapp");
  if (!m.from) {
    if (!m.userId || !whatsapp) return { sent: false };
    const r = await whatsapp.send({ userId: m.userId, lastInboundAt: m.at }, { body: usernameOnlyText() });
    if (r.status !== "delivered")
      deps.services.log.warn("whatsapp reply to a username not sent", {
        status: r.status,
        to: `${m.userId.slice(0, 6)}…`,
        reason: r.reason,
      });
    return { sent: r.status === "delivered" };
  }
  const phone = `+${m.from.replace(/\D/g, "")}`;
  const u = await linkedAccount(deps.db, { whatsappNumber: phone });
  if (u)
    await deps.db
      .update(messagingPreferences)
      .set({ whatsappLastInboundAt: m.at })
      .where(eq(messagingPreferences.userId, u.user.id));
  const { command, args } = parseCommand(m.text ?? m.buttonPayload ?? "");
  let text: string;
  if (!u) text = notLinkedText("en", "whatsapp");
  else if (command === "loads") text = asText(await loadsCommand(deps, u, "whatsapp"));
  else if (command === "bid") text = asText(await bidCommand(deps, u, "whatsapp", args));
  else if (command === "offers") text = asText(await offersCommand(deps, u, "whatsapp"));
  else if (command === "accept" || command === "decline" || command === "counter")
    text = asText(await counterAnswerCommand(deps, u, "whatsapp", command, args));
  else if (command === "track") text = asText(await trackCommand(deps, u, "whatsapp", args));
  else text = helpText(u.language, "whatsapp");
  if (!whatsapp) return { sent: false };
  const result = await whatsapp.send({ phone, lastInboundAt: m.at }, { body: text });
  if (result.status !== "delivered")
    deps.services.log.warn("whatsapp reply not sent", { status: result.status, to: `${phone.slice(0, -4)}****` });
  return { sent: result.status === "delivered" };
};
