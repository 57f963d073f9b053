import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { RefreshCw } from "lucide-react";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { errorInfo, trpc } from "../../lib/trpc";

export const Route = createFileRoute("/_authed/dev/webhooks")({ component: DevWebhooksPage });

/** The body as the receiver got it, indented when it is JSON (it is shown as text; nothing in it is rendered). */
const pretty = (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

/**
 * Demo mode's webhook log: what the Sandbox receiver got at the signed-in user's receivers, newest first, each with
 * whether its MyTess-Signature verified. Outside demo mode the server answers 404 and the page says so.
 */
function DevWebhooksPage() {
  const { t, i18n } = useLingui();
  const got = useQuery({ ...trpc.webhooks.sandboxReceived.queryOptions(), retry: false, refetchInterval: 5000 });
  const info = got.error ? errorInfo(got.error) : null;
  const received = got.data?.received ?? [];
  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h1 className="flex items-center gap-2 text-2xl font-semibold">
          <Trans comment="Title of the demo-mode page listing the webhook calls the local Sandbox receiver got">
            Sandbox webhook receiver
          </Trans>
          <Badge variant="secondary">
            <Trans comment="Label of a local emulator standing in for an outside service">Sandbox</Trans>
          </Badge>
        </h1>
        <Button
          type="button"
          variant="outline"
          className="min-h-11"
          disabled={got.isFetching}
          onClick={() => void got.refetch()}
          data-testid="refresh-received"
        >
          <RefreshCw className={got.isFetching ? "animate-spin" : undefined} aria-hidden />
          <Trans comment="Button: fetch the list again">Refresh</Trans>
        </Button>
      </div>
      <p className="mb-6 text-sm text-muted-foreground">
        <Trans>
          In demo mode, webhook endpoints at a Sandbox receiver of yours deliver here instead of to a server of your
          own. The receiver checks each call's MyTess-Signature with the endpoint's secret, as your server should.
        </Trans>
      </p>
      {got.isPending ? (
        <p role="status">
          <Trans>Loading...</Trans>
        </p>
      ) : info ? (
        <p role="alert">
          {info.status === 404
            ? t`The Sandbox webhook receiver exists in demo mode only.`
            : info.status === 0
              ? t`Could not reach MyTess. Check your connection and try again.`
              : t`Something went wrong. Please try again.`}
        </p>
      ) : received.length === 0 ? (
        <p data-testid="nothing-received">
          <Trans>
            Nothing received yet. On{" "}
            <Link to="/settings" className="text-brand underline">
              Settings
            </Link>
            , press "Use a Sandbox receiver" under Webhooks, add the endpoint with the events you want, then make one
            happen: a bid on one of your loads, for instance.
          </Trans>
        </p>
      ) : (
        <ul
          className="grid gap-4"
          aria-label={t({
            message: "Webhook calls received",
            comment: "Accessible name of the list on the demo page of the Sandbox webhook receiver",
          })}
        >
          {received.map((r) => (
            <li key={r.id}>
              <Card data-testid="received-webhook">
                <CardHeader>
                  <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
                    <code>{r.event || "—"}</code>
                    {r.signatureValid ? (
                      <Badge variant="success" data-testid="signature-status">
                        <Trans comment="A webhook call's MyTess-Signature header matched the endpoint's secret">
                          Signature verified
                        </Trans>
                      </Badge>
                    ) : (
                      <Badge variant="destructive" data-testid="signature-status">
                        <Trans comment="A webhook call's MyTess-Signature header did not match the endpoint's secret (or was too old): the receiver answered 400">
                          Signature did not verify
                        </Trans>
                      </Badge>
                    )}
                  </CardTitle>
                  <p className="text-sm text-muted-foreground">
                    {i18n.date(new Date(r.receivedAt), { dateStyle: "medium", timeStyle: "medium" })}
                  </p>
                  <p className="break-all text-xs text-muted-foreground">
                    <Trans comment="The Sandbox receiver address (a webhook endpoint's address) that got a call">
                      At {r.url}
                    </Trans>
                  </p>
                  {r.delivery && (
                    <p className="break-all text-xs text-muted-foreground">
                      <Trans comment="The MyTess-Delivery header of a webhook call: the delivery's id">
                        Delivery {r.delivery}
                      </Trans>
                    </p>
                  )}
                </CardHeader>
                <CardContent>
                  <details>
                    <summary className="min-h-11 cursor-pointer py-2 text-sm font-medium">
                      <Trans comment="Expands to show the JSON body of a webhook call">Body (JSON)</Trans>
                    </summary>
                    <pre
                      className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-3 text-xs"
                      data-testid="received-body"
                    >
                      {pretty(r.body)}
                    </pre>
                  </details>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
