// Account mails, composed in the recipient's language: the same paragraphs as plain text and as simple HTML (escaped,
// inline styles only, since mail clients drop style sheets), with one call-to-action link.
import type { TLanguage } from "../../../shared/constants";
import type { TMail } from "../../integrations/mail/smtp";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export type TMailContent = {
  subject: string;
  /** The opening paragraphs, before the link. */
  intro: string[];
  action: { label: string; url: string };
  /** The paragraphs after the link. */
  outro: string[];
};

/** The plain text and HTML of a mail from its translated parts. */
export const composeMail = (locale: TLanguage, to: string, messageId: string, c: TMailContent): TMail => {
  const text = [...c.intro, `${c.action.label}: ${c.action.url}`, ...c.outro, "MyTess"].join("\n\n");
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const url = escapeHtml(c.action.url);
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(c.subject)}</title></head>`,
    '<body style="font-family:Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">',
    ...c.intro.map(p),
    `<p style="margin:24px 0"><a href="${url}" style="background:#2563eb;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(c.action.label)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#6b7280;word-break:break-all">${url}</p>`,
    ...c.outro.map(p),
    '<p style="margin:24px 0 0;color:#6b7280">MyTess</p>',
    "</body></html>",
  ].join("");
  return { to, subject: c.subject, text, html, messageId };
};

/** A mail's Message-ID from its job's key: the same mail sent again carries the same id. */
export const messageIdFor = (key: string, baseUrl: string) => {
  const digest = new Bun.CryptoHasher("sha256").update(key).digest("hex").slice(0, 32);
  const host = URL.parse(baseUrl)?.hostname || "mytess.local";
  return `<${digest}@${host}>`;
};
