// A mail catcher: a real SMTP server on loopback (smtp-server) that keeps every mail it is given, parsed (mailparser).
// Tests send through it and read exactly what a user would receive; the demo launcher runs one and writes each mail
// to a folder the server's /dev/mail page reads (every server process sees the same inbox).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type TCaughtMail = {
  id: string;
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
};

export type TMailCatcher = {
  port: number;
  /** The SMTP_URL that sends here. */
  url: string;
  mails: TCaughtMail[];
  /** The newest mail to `to` that arrived after `after` mails, waiting for it (no fixed sleep). */
  waitFor: (to: string, o?: { after?: number; timeoutMs?: number }) => Promise<TCaughtMail>;
  /** Answers the next `n` messages with this SMTP status (to test retries and refusals). */
  failNext: (n: number, code: number, message: string) => void;
  close: () => Promise<void>;
};

export const startMailCatcher = async (o: { port?: number; dir?: string } = {}): Promise<TMailCatcher> => {
  const mails: TCaughtMail[] = [];
  const waiters = new Set<() => void>();
  let failures: { n: number; code: number; message: string } | null = null;
  if (o.dir) mkdirSync(o.dir, { recursive: true });
  const server = new SMTPServer({
    // Loopback only and no TLS: nodemailer would otherwise try STARTTLS against a self-signed certificate.
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      if (failures && failures.n > 0) {
        failures.n--;
        const { code, message } = failures;
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error(message), { responseCode: code })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((a) =>
            a.value.map((v) => v.address ?? ""),
          );
          const mail: TCaughtMail = {
            id: crypto.randomUUID(),
            messageId: parsed.messageId ?? "",
            from: parsed.from?.text ?? "",
            to,
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            receivedAt: Date.now(),
          };
          mails.push(mail);
          if (o.dir) writeFileSync(join(o.dir, `${mail.receivedAt}-${mail.id}.json`), JSON.stringify(mail));
          for (const w of waiters) w();
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  const find = (to: string, after: number) =>
    mails
      .slice(after)
      .reverse()
      .find((m) => m.to.includes(to.toLowerCase()) || m.to.includes(to));
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: (to, w = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = find(to, w.after ?? 0);
          if (!m) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} arrived`));
        }, w.timeoutMs ?? 30_000);
        if (!check()) waiters.add(check);
      }),
    failNext: (n, code, message) => {
      failures = { n, code, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
