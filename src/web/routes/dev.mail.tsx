import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Fragment } from "react";
import { Badge } from "../components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { loadAppMessages } from "../lib/i18n";
import { errorInfo, trpc } from "../lib/trpc";

export const Route = createFileRoute("/dev/mail")({ beforeLoad: () => loadAppMessages(), component: DevMailPage });

const URL_RE = /(https?:\/\/[^\s<>"]+)/g;

/** A mail's text with its links clickable (the text is shown as sent; nothing in it is rendered as HTML). */
const withLinks = (text: string) =>
  text.split(URL_RE).map((part, i) =>
    i % 2 === 1 ? (
      <a key={`${i}-${part}`} href={part} className="break-all text-brand underline">
        {part}
      </a>
    ) : (
      <Fragment key={`${i}-${part.slice(0, 8)}`}>{part}</Fragment>
    ),
  );

/** Demo mode's inbox: every mail the local mail catcher took, newest first. Outside demo mode the server answers 404. */
function DevMailPage() {
  const { t, i18n } = useLingui();
  const inbox = useQuery({ ...trpc.mail.sandboxInbox.queryOptions(), retry: false, refetchInterval: 3000 });
  const info = inbox.error ? errorInfo(inbox.error) : null;
  const mails = inbox.data?.mails ?? [];
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="mb-1 flex items-center gap-2 text-2xl font-semibold">
        <Trans comment="Title of the demo-mode page listing the mails MyTess sent">Demo inbox</Trans>
        <Badge variant="secondary">
          <Trans comment="Label of a local emulator standing in for an outside service">Sandbox</Trans>
        </Badge>
      </h1>
      <p className="mb-6 text-sm text-muted-foreground">
        <Trans>Mail MyTess sent in demo mode arrives here instead of in a real mailbox.</Trans>
      </p>
      {inbox.isPending ? (
        <p role="status">
          <Trans>Loading...</Trans>
        </p>
      ) : info ? (
        <p role="alert">
          {info.status === 404
            ? t`The demo inbox exists in demo mode only.`
            : info.status === 0
              ? t`Could not reach MyTess. Check your connection and try again.`
              : t`Something went wrong. Please try again.`}
        </p>
      ) : mails.length === 0 ? (
        <p>
          <Trans>No mail yet.</Trans>
        </p>
      ) : (
        <ul
          className="grid gap-4"
          aria-label={t({ message: "Mails", comment: "Accessible name of the list of mails on the demo inbox page" })}
        >
          {mails.map((m) => (
            <li key={m.id}>
              <Card>
                <CardHeader>
                  <CardTitle className="text-lg">{m.subject}</CardTitle>
                  <p className="text-sm text-muted-foreground">
                    <Trans comment="Recipients and time a mail arrived, on the demo inbox page">
                      To {m.to.join(", ")},{" "}
                      {i18n.date(new Date(m.receivedAt), { dateStyle: "medium", timeStyle: "short" })}
                    </Trans>
                  </p>
                </CardHeader>
                <CardContent>
                  <p className="whitespace-pre-wrap break-words text-sm">{withLinks(m.text)}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
