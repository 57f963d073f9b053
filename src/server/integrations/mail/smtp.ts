// Mail through SMTP (nodemailer). One transport per process, shared by every job that sends: nodemailer opens a
// connection per message unless pooled, which suits a handful of account mails. SMTP is not HTTP, so this adapter does
// not pass the outgoing-call guard: the SMTP host is the operator's own setting (SMTP_URL), never a user's input.
import nodemailer from "nodemailer";
import type { TConfig } from "../../config";

export type TMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The mail's own Message-ID, made from its job's key: a retried job (its worker stopped after the server took the
   * mail) sends the same message again, which mail servers and clients recognise as one.
   */
  messageId: string;
};

/** What a send came to: taken by the server, or refused for good (a bad address: retrying changes nothing). */
export type TMailResult = { status: "sent"; messageId: string } | { status: "refused"; reason: string };

export type TMailer = {
  /** "active" for the operator's SMTP server, "sandbox" for the demo's local mail catcher. */
  label: "active" | "sandbox";
  /** Sends one mail; a passing failure (the server unreachable, busy: 4xx) throws, so the job retries. */
  send: (mail: TMail) => Promise<TMailResult>;
};

/** Mail settings: the SMTP server (null: no mail is sent) and the sender. */
export const mailerFrom = (c: Pick<TConfig, "mail">): TMailer | null => {
  if (!c.mail.smtpUrl) return null;
  const transport = nodemailer.createTransport(c.mail.smtpUrl);
  const host = URL.parse(c.mail.smtpUrl)?.hostname ?? "";
  const sandbox = c.mail.sandboxDir !== null && (host === "127.0.0.1" || host === "localhost");
  return {
    label: sandbox ? "sandbox" : "active",
    send: async (mail) => {
      try {
        const info = await transport.sendMail({
          from: c.mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
        });
        if (info.rejected.length > 0) return { status: "refused", reason: String(info.response ?? "rejected") };
        return { status: "sent", messageId: info.messageId };
      } catch (err) {
        // 5xx is the server's final word on this mail (unknown mailbox, refused sender); anything else may pass.
        const code = (err as { responseCode?: number }).responseCode;
        if (typeof code === "number" && code >= 500 && code < 600)
          return { status: "refused", reason: `${code} ${(err as Error).message}` };
        throw err;
      }
    },
  };
};
