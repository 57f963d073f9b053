import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Badge } from "../components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { loadAppMessages } from "../lib/i18n";
import { errorInfo, trpc } from "../lib/trpc";

export const Route = createFileRoute("/dev/sms")({ beforeLoad: () => loadAppMessages(), component: DevSmsPage });

/** Demo mode's SMS inbox: every SMS the Twilio and AfroMessage Sandboxes took, newest first (404 outside demo mode). */
function DevSmsPage() {
  const { t, i18n } = useLingui();
  const inbox = useQuery({ ...trpc.sms.sandboxInbox.queryOptions(), retry: false, refetchInterval: 3000 });
  const info = inbox.error ? errorInfo(inbox.error) : null;
  const messages = inbox.data?.messages ?? [];
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="mb-1 flex items-center gap-2 text-2xl font-semibold">
        <Trans comment="Title of the demo-mode page listing the SMS MyTess sent">Demo SMS inbox</Trans>
        <Badge variant="secondary">
          <Trans comment="Label of a local emulator standing in for an outside service">Sandbox</Trans>
        </Badge>
      </h1>
      <p className="mb-6 text-sm text-muted-foreground">
        <Trans>SMS MyTess sent in demo mode arrive here instead of on a real phone.</Trans>
      </p>
      {inbox.isPending ? (
        <p role="status">
          <Trans>Loading...</Trans>
        </p>
      ) : info ? (
        <p role="alert">
          {info.status === 404
            ? t`The demo SMS inbox exists in demo mode only.`
            : info.status === 0
              ? t`Could not reach MyTess. Check your connection and try again.`
              : t`Something went wrong. Please try again.`}
        </p>
      ) : messages.length === 0 ? (
        <p>
          <Trans>No SMS yet.</Trans>
        </p>
      ) : (
        <ul
          className="grid gap-4"
          aria-label={t({ message: "SMS messages", comment: "Accessible name of the list on the demo SMS inbox page" })}
        >
          {messages.map((m) => (
            <li key={m.id}>
              <Card>
                <CardHeader>
                  <CardTitle className="text-lg">
                    <Trans comment="Recipient of an SMS on the demo SMS inbox page">To {m.to}</Trans>
                  </CardTitle>
                  <p className="text-sm text-muted-foreground">
                    {m.provider === "twilio" ? "Twilio" : "AfroMessage"} ·{" "}
                    {i18n.date(new Date(m.receivedAt), { dateStyle: "medium", timeStyle: "short" })}
                  </p>
                </CardHeader>
                <CardContent>
                  <p className="whitespace-pre-wrap break-words">{m.body}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
