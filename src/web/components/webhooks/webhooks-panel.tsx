import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Copy } from "lucide-react";
import { type FormEvent, useState } from "react";
import { type TWebhookEvent, WEBHOOK_EVENTS } from "../../../shared/schemas/webhooks";
import { useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { SandboxBadge } from "../boards/status-badges";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { TextField } from "../ui/input";

/**
 * Outgoing webhooks: register an https endpoint for chosen events (its signing secret shown once, with a copy button),
 * see each endpoint's deliveries with their attempts, send one again, delete the endpoint. In demo mode (the server
 * runs the Sandbox receiver) a button fills the address with a fresh Sandbox receiver of the user's own, and a link
 * opens /dev/webhooks, which lists what those receivers got.
 */
export function WebhooksPanel() {
  const { t } = useLingui();
  const online = useOnline();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<TWebhookEvent[]>(["load.awarded"]);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  // Demo mode: the Sandbox receiver's origin (null otherwise), to offer it and to mark the endpoints at it.
  const sandbox = useQuery(trpc.webhooks.sandbox.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  const receiverOrigin = sandbox.data?.receiverOrigin ?? null;
  const atSandbox = (address: string) => receiverOrigin !== null && address.startsWith(`${receiverOrigin}/r/`);
  // A fresh receiver address each time (nothing is stored until the user adds the endpoint).
  const receiver = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...trpc.webhooks.sandboxReceiver.queryOptions(), staleTime: 0 }),
    onSuccess: (r) => {
      setUrl(r.url);
      setError(null);
    },
    onError: (e) => setError(e.message),
  });

  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (made) => {
        setShown({ url: made.url, secret: made.secret });
        setUrl("");
        setError(null);
        void refresh();
      },
      onError: (e) => setError(e.message),
    }),
  );
  const remove = useMutation(
    trpc.webhooks.remove.mutationOptions({
      onSuccess: () => {
        setDeleting(null);
        void refresh();
        toast({
          title: t({ message: "Endpoint deleted", comment: "Notice title: a webhook endpoint was deleted" }),
          variant: "success",
        });
      },
      onError: (e) => toast({ title: t`Error`, description: e.message, variant: "destructive" }),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim()) return setError(t`Enter the https address that receives the events`);
    if (!events.length) return setError(t`Choose at least one event`);
    create.mutate({ url: url.trim(), events });
  };
  const copy = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      toast({
        title: t({ message: "Secret copied", comment: "Notice title: a webhook signing secret was copied" }),
        variant: "success",
      });
    } catch {
      toast({
        title: t({ message: "Copy Failed", comment: "Notice title: copying to the clipboard did not work" }),
        description: t`Please copy the secret manually`,
        variant: "destructive",
      });
    }
  };
  const toggle = (event: TWebhookEvent, on: boolean) =>
    setEvents((s) => (on ? WEBHOOK_EVENTS.filter((x) => x === event || s.includes(x)) : s.filter((x) => x !== event)));

  return (
    <Card data-testid="webhooks">
      <CardHeader>
        <CardTitle>
          <Trans comment="Settings card title: addresses of the user's own systems that MyTess calls when events happen">
            Webhooks
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            MyTess calls your system's https address when something happens to your loads. Each call is signed with the
            endpoint's secret in the MyTess-Signature header, and retried for a day until it is answered with 2xx.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!online && (
          <p role="status" className="text-sm text-muted-foreground" data-testid="webhooks-offline">
            <Trans>You are offline: webhooks can be changed once you are back online.</Trans>
          </p>
        )}
        {shown && (
          <div className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="new-webhook">
            <p className="text-sm font-medium">
              <Trans>Copy the signing secret for {shown.url} now: it is not shown again.</Trans>
            </p>
            <div className="flex items-center gap-2">
              <code
                className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-xs"
                data-testid="webhook-secret"
              >
                {shown.secret}
              </code>
              <Button
                type="button"
                variant="outline"
                className="min-h-11"
                onClick={() => void copy(shown.secret)}
                aria-label={t({
                  message: "Copy secret",
                  comment: "Button label: copy the new webhook signing secret to the clipboard",
                })}
              >
                <Copy aria-hidden />
                <Trans comment="Button: copy the text (promotion text, webhook address) to the clipboard">Copy</Trans>
              </Button>
            </div>
            <Button
              type="button"
              variant="ghost"
              className="min-h-11 justify-self-start"
              onClick={() => setShown(null)}
            >
              <Trans comment="Button: the user has copied the new token and hides it">Done</Trans>
            </Button>
          </div>
        )}
        <form className="grid gap-3" onSubmit={submit} noValidate>
          <TextField
            id="webhook-url"
            type="url"
            inputMode="url"
            placeholder="https://"
            label={<Trans comment="Field label: the https address that receives webhook calls">Endpoint address</Trans>}
            value={url}
            maxLength={500}
            onChange={(e) => setUrl(e.target.value)}
            error={error ?? undefined}
          />
          {receiverOrigin && (
            <div className="grid gap-2 rounded-md border border-dashed p-3 text-sm" data-testid="webhook-sandbox">
              <p className="flex flex-wrap items-center gap-2 text-muted-foreground">
                <SandboxBadge />
                <Trans>
                  This demo runs a Sandbox receiver: it stands in for your own server and checks each call's
                  MyTess-Signature with the endpoint's secret.
                </Trans>
              </p>
              <div className="flex flex-wrap items-center gap-3">
                <Button
                  type="button"
                  variant="outline"
                  className="min-h-11"
                  disabled={receiver.isPending || !online}
                  onClick={() => receiver.mutate()}
                  data-testid="use-sandbox-receiver"
                >
                  <Trans comment="Button: fill the webhook address with a fresh address of the demo's local webhook receiver">
                    Use a Sandbox receiver
                  </Trans>
                </Button>
                <Link to="/dev/webhooks" className="inline-flex min-h-11 items-center text-brand underline">
                  <Trans comment="Link to the demo page listing the webhook calls the local Sandbox receiver got">
                    See what the Sandbox receiver got
                  </Trans>
                </Link>
              </div>
              {atSandbox(url) && (
                <p className="text-xs text-muted-foreground" data-testid="sandbox-receiver-chosen">
                  <Trans>The address is a Sandbox receiver of yours. Choose its events, then add the endpoint.</Trans>
                </p>
              )}
            </div>
          )}
          <fieldset className="grid gap-1">
            <legend className="mb-1 text-sm font-medium">
              <Trans comment="Field label: which events a webhook endpoint receives">Events</Trans>
            </legend>
            <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
              {WEBHOOK_EVENTS.map((event) => (
                <label key={event} className="flex min-h-11 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={events.includes(event)}
                    onChange={(e) => toggle(event, e.target.checked)}
                  />
                  <code>{event}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" className="min-h-11 justify-self-start" disabled={create.isPending || !online}>
            <Trans comment="Button: register a new webhook endpoint">Add endpoint</Trans>
          </Button>
        </form>
        {endpoints.isPending ? (
          <p className="text-sm text-muted-foreground">
            <Trans>Getting your webhook endpoints…</Trans>
          </p>
        ) : endpoints.isError ? (
          <p role="alert" className="text-sm text-destructive">
            <Trans>Your webhook endpoints could not be shown. Check your connection and try again.</Trans>
          </p>
        ) : endpoints.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-webhooks">
            <Trans>You have no webhook endpoints yet.</Trans>
          </p>
        ) : (
          <ul className="grid gap-2" data-testid="webhook-list">
            {endpoints.data.map((ep) => (
              <li key={ep.id} className="grid gap-2 rounded-md border p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="break-all font-medium">{ep.url}</span>
                      {atSandbox(ep.url) && <SandboxBadge />}
                    </div>
                    <div className="text-xs text-muted-foreground">{ep.events.join(", ")}</div>
                  </div>
                  <Button
                    type="button"
                    variant="outline"
                    className="min-h-11"
                    aria-expanded={open === ep.id}
                    onClick={() => setOpen(open === ep.id ? null : ep.id)}
                  >
                    <Trans comment="Button: show or hide the list of a webhook endpoint's deliveries">Deliveries</Trans>
                  </Button>
                  <ConfirmDeleteDialog
                    open={deleting === ep.id}
                    onOpenChange={(o) => setDeleting(o ? ep.id : null)}
                    title={<Trans>Delete the endpoint {ep.url}?</Trans>}
                    description={<Trans>It receives no more events, and its deliveries log is deleted with it.</Trans>}
                    pending={remove.isPending}
                    onConfirm={() => remove.mutate({ id: ep.id })}
                    testIds={{
                      trigger: "delete-webhook",
                      dialog: "delete-webhook-dialog",
                      confirm: "confirm-delete-webhook",
                    }}
                  />
                </div>
                {open === ep.id && <DeliveriesLog endpointId={ep.id} online={online} />}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** An endpoint's newest deliveries: event, time, state, each attempt's answer; a button sends one again. */
function DeliveriesLog({ endpointId, online }: { endpointId: number; online: boolean }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const log = useQuery(trpc.webhooks.deliveries.queryOptions({ id: endpointId }));
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: () => {
        toast({
          title: t({
            message: "Sending again",
            comment: "Notice title: a webhook delivery was queued to be sent again",
          }),
          variant: "success",
        });
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ id: endpointId }) });
      },
      onError: (e) => toast({ title: t`Error`, description: e.message, variant: "destructive" }),
    }),
  );
  const statusWord = (s: "pending" | "delivered" | "failed") =>
    s === "delivered"
      ? t({ message: "Delivered", comment: "Webhook delivery state: the endpoint answered with 2xx" })
      : s === "failed"
        ? t({ message: "Failed", comment: "Webhook delivery state: every retry failed" })
        : t({ message: "Pending", comment: "Webhook delivery state: not delivered yet, will be retried" });

  if (log.isPending)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Getting the deliveries…</Trans>
      </p>
    );
  if (log.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        <Trans>The deliveries could not be shown. Check your connection and try again.</Trans>
      </p>
    );
  if (!log.data.length)
    return (
      <p className="text-sm text-muted-foreground" data-testid="no-deliveries">
        <Trans>Nothing has been sent to this endpoint yet.</Trans>
      </p>
    );
  return (
    <ul className="grid gap-2" data-testid="delivery-list">
      {log.data.map((d) => {
        const last = d.attempts[0];
        return (
          <li key={d.id} className="flex flex-wrap items-center gap-2 rounded border p-2 text-xs">
            <div className="min-w-0 flex-1">
              <div>
                <code>{d.event}</code> · {i18n.date(d.createdAt, { dateStyle: "medium", timeStyle: "short" })}
              </div>
              <div className="text-muted-foreground" data-testid="delivery-status">
                {statusWord(d.status)}
                {last && (
                  <>
                    {" · "}
                    {last.statusCode !== null ? (
                      <Trans comment="Webhook delivery log: the HTTP status the endpoint answered, then milliseconds">
                        HTTP {last.statusCode} in {last.durationMs} ms
                      </Trans>
                    ) : (
                      (last.error ?? "")
                    )}
                    {" · "}
                    <Trans comment="Webhook delivery log: how many times the event was sent">
                      {d.attempts.length} attempts
                    </Trans>
                  </>
                )}
              </div>
            </div>
            <Button
              type="button"
              variant="outline"
              className="min-h-11"
              disabled={!online || resend.isPending}
              onClick={() => resend.mutate({ id: d.id })}
              data-testid="resend-delivery"
            >
              <Trans comment="Button: send a webhook delivery to its endpoint again">Resend</Trans>
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
