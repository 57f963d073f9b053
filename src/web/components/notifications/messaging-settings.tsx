import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Send } from "lucide-react";
import { type ReactNode, useState } from "react";
import { LANGUAGES } from "../../../shared/constants";
import type { TMessagingPreferencesInput, TMessagingType } from "../../../shared/schemas/messaging";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Label, TextField } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { Switch } from "../ui/switch";
import { WhatsAppVerification } from "./whatsapp-verification";

// The Telegram chat is not part of the form: it is linked only from the bot (Connect Telegram), and shown as linked.
type TForm = {
  whatsappEnabled: boolean;
  whatsappNumber: string;
  telegramEnabled: boolean;
  notificationTypes: Record<TMessagingType, boolean>;
  language: TMessagingPreferencesInput["language"];
};
type TErrors = Partial<Record<"whatsappNumber" | "telegramChatId", string>>;
type TState = "active" | "sandbox" | "not_configured";

function ChannelState({ state }: { state: TState | undefined }) {
  const { t } = useLingui();
  if (state === "sandbox") return <Badge variant="warning">{t`Sandbox`}</Badge>;
  if (state === "not_configured")
    return (
      <Badge variant="outline">
        {t({ message: "Not configured", comment: "Badge: this channel or carrier is not set up on the server" })}
      </Badge>
    );
  return null;
}

/** The Messaging page: WhatsApp, Telegram, notification types, Ethiopian features and Save Settings. */
export function MessagingSettings({ children }: { children?: ReactNode }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const saved = useQuery(trpc.notifications.messagingPreferences.queryOptions());
  const [edit, setEdit] = useState<TForm | null>(null);
  const [errors, setErrors] = useState<TErrors>({});
  const data = saved.data;
  const form: TForm | null =
    edit ??
    (data
      ? {
          whatsappEnabled: data.whatsappEnabled,
          whatsappNumber: data.whatsappNumber ?? "",
          telegramEnabled: data.telegramEnabled,
          notificationTypes: data.notificationTypes,
          language: data.language,
        }
      : null);
  const set = (p: Partial<TForm>) => form && setEdit({ ...form, ...p });

  const onFieldErrors = (err: unknown, map: Record<string, keyof TErrors> = {}) => {
    const info = errorInfo(err);
    const next: TErrors = {};
    for (const i of info.issues) {
      const key = (map[i.path] ?? i.path) as keyof TErrors;
      if (key === "whatsappNumber" || key === "telegramChatId") next[key] ??= i.message;
    }
    setErrors(next);
    return info;
  };

  const save = useMutation(
    trpc.notifications.saveMessagingPreferences.mutationOptions({
      onSuccess: (view) => {
        queryClient.setQueryData(trpc.notifications.messagingPreferences.queryKey(), view);
        setEdit(null);
        setErrors({});
        toast({
          title: t`Settings Saved`,
          description: t`Your messaging preferences have been updated.`,
          variant: "success",
        });
      },
      onError: (err) => {
        onFieldErrors(err);
        toast({
          title: t`Error`,
          description: t`Failed to save messaging preferences. Please try again.`,
          variant: "destructive",
        });
      },
    }),
  );
  const whatsappTest = useMutation(
    trpc.notifications.whatsappTest.mutationOptions({
      onSuccess: () =>
        toast({
          title: t`Test Message Sent`,
          description: t`Check your WhatsApp for the test message.`,
          variant: "success",
        }),
      onError: (err) => {
        const info = onFieldErrors(err, { phoneNumber: "whatsappNumber" });
        toast({
          title: t`Test Failed`,
          description: info.status === 429 ? info.message : t`Failed to send WhatsApp test message.`,
          variant: "destructive",
        });
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.notifications.history.queryKey() }),
    }),
  );
  const telegramTest = useMutation(
    trpc.notifications.telegramTest.mutationOptions({
      onSuccess: () =>
        toast({
          title: t`Test Message Sent`,
          description: t`Check your Telegram for the test message.`,
          variant: "success",
        }),
      onError: (err) => {
        const info = onFieldErrors(err, { chatId: "telegramChatId" });
        toast({
          title: t`Test Failed`,
          description: info.status === 429 ? info.message : t`Failed to send Telegram test message.`,
          variant: "destructive",
        });
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.notifications.history.queryKey() }),
    }),
  );

  if (saved.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans>Loading your messaging preferences…</Trans>
      </p>
    );
  if (saved.isError || !form || !data)
    return (
      <LoadError
        title={<Trans>Your messaging preferences could not be loaded.</Trans>}
        error={saved.error}
        onRetry={saved.refetch}
      />
    );

  const testWhatsApp = () => {
    const phoneNumber = form.whatsappNumber.trim();
    if (!phoneNumber)
      return toast({
        title: t`Phone Number Required`,
        description: t`Please enter your WhatsApp phone number first.`,
        variant: "destructive",
      });
    whatsappTest.mutate({ phoneNumber, type: "test", message: t`This is a test message from MyTess.` });
  };
  const testTelegram = () => {
    const chatId = data.telegramChatId;
    if (!chatId)
      return toast({
        title: t`Chat ID Required`,
        description: t`Connect Telegram first: press Connect Telegram, then Start in the bot.`,
        variant: "destructive",
      });
    telegramTest.mutate({ chatId, type: "test", message: t`This is a test message from MyTess.` });
  };

  const types: { key: TMessagingType; label: ReactNode; hint: ReactNode }[] = [
    {
      key: "loadAssigned",
      label: (
        <Trans comment="Notification type choice: a load was given to you (driver) or by you (shipper)">
          Load assigned
        </Trans>
      ),
      hint: <Trans>When a shipper accepts your bid.</Trans>,
    },
    {
      key: "loadUpdates",
      label: (
        <Trans comment="Notification type choice: changes to a load (picked up, delivered, cancelled)">
          Load updates
        </Trans>
      ),
      hint: <Trans>New bids, messages, pickup, delivery, completion and cancellation.</Trans>,
    },
    {
      key: "paymentReceived",
      label: <Trans comment="Notification type choice: a subscription payment arrived">Payment received</Trans>,
      hint: <Trans>When a payment reaches you.</Trans>,
    },
    {
      key: "systemAlerts",
      label: (
        <Trans comment="Notification type choice: maintenance and account notices (alerts from the system)">
          System alerts
        </Trans>
      ),
      hint: <Trans>Maintenance and account notices.</Trans>,
    },
  ];

  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({
          ...form,
          whatsappNumber: form.whatsappNumber.trim() || null,
          telegramChatId: data.telegramChatId,
        });
      }}
    >
      <Card data-testid="whatsapp-card">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Trans comment="Messaging page card title: linking a WhatsApp number to the account">
              WhatsApp Integration
            </Trans>
            <ChannelState state={data.channels.whatsapp} />
          </CardTitle>
          <CardDescription>
            <Trans>Bids, awards and trip updates as WhatsApp messages.</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex items-center justify-between gap-3">
            <Label htmlFor="whatsapp-enabled">
              <Trans>Enable WhatsApp notifications</Trans>
            </Label>
            <Switch
              id="whatsapp-enabled"
              checked={form.whatsappEnabled}
              onCheckedChange={(on) => set({ whatsappEnabled: on })}
            />
          </div>
          {form.whatsappEnabled && (
            <div className="grid gap-2">
              <TextField
                id="whatsapp-number"
                label={<Trans>WhatsApp phone number</Trans>}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                placeholder="+251 91 123 4567"
                value={form.whatsappNumber}
                error={errors.whatsappNumber}
                onChange={(e) => set({ whatsappNumber: e.target.value })}
              />
              <p className="text-xs text-muted-foreground">
                <Trans>Include the country code (e.g. +251).</Trans>{" "}
                <Trans>Ethiopian numbers may also be written from 09 or 07.</Trans>
              </p>
              <WhatsAppVerification
                typed={form.whatsappNumber}
                verifiedNumber={data.whatsappVerified ? data.whatsappNumber : null}
                onVerified={(number) => set({ whatsappNumber: number })}
                onNumberError={(message) => setErrors((e) => ({ ...e, whatsappNumber: message }))}
              />
              <div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={whatsappTest.isPending}
                  onClick={testWhatsApp}
                >
                  <Send className="size-4" aria-hidden />
                  {whatsappTest.isPending ? (
                    <Trans comment="Button while a test message is being sent">Sending...</Trans>
                  ) : (
                    <Trans>Send Test Message</Trans>
                  )}
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>

      <Card data-testid="telegram-card">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Trans comment="Messaging page card title: linking a Telegram chat to the account">
              Telegram Integration
            </Trans>
            <ChannelState state={data.channels.telegram} />
          </CardTitle>
          <CardDescription>
            <Trans>Alerts from the MyTess bot, with buttons to accept or reject bids and commands to find loads.</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {data.telegramBlocked && (
            <p className="rounded-md border border-destructive/40 p-3 text-sm text-destructive" role="alert">
              <Trans>
                Telegram said you blocked the MyTess bot, so Telegram notifications were turned off. Unblock the bot in
                Telegram, then connect again or turn Telegram back on.
              </Trans>
            </p>
          )}
          {data.telegramLinkUrl && (
            <div className="grid gap-1">
              <div>
                <Button asChild size="sm">
                  <a href={data.telegramLinkUrl} target="_blank" rel="noreferrer" data-testid="telegram-connect">
                    <ExternalLink className="size-4" aria-hidden />
                    <Trans comment="Button: open Telegram to link this chat to the MyTess account">
                      Connect Telegram
                    </Trans>
                  </a>
                </Button>
              </div>
              <p className="text-xs text-muted-foreground">
                <Trans>
                  Opens the MyTess bot in Telegram; press Start and your chat is linked. The link works once, for at
                  least half an hour.
                </Trans>
              </p>
            </div>
          )}
          <div className="flex items-center justify-between gap-3">
            <Label htmlFor="telegram-enabled">
              <Trans>Enable Telegram notifications</Trans>
            </Label>
            <Switch
              id="telegram-enabled"
              checked={form.telegramEnabled}
              onCheckedChange={(on) => set({ telegramEnabled: on })}
            />
          </div>
          {form.telegramEnabled && (
            <div className="grid gap-2">
              <TextField
                id="telegram-chat-id"
                label={<Trans>Telegram chat ID</Trans>}
                readOnly
                placeholder={t`Not linked yet`}
                value={data.telegramChatId ?? ""}
                error={errors.telegramChatId}
              />
              <p className="text-xs text-muted-foreground">
                <Trans>
                  The chat linked through Connect Telegram. To use another chat, press Connect Telegram and then Start
                  in that chat; /stop in the bot unlinks it.
                </Trans>
              </p>
              <div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={telegramTest.isPending}
                  onClick={testTelegram}
                >
                  <Send className="size-4" aria-hidden />
                  {telegramTest.isPending ? <Trans>Sending...</Trans> : <Trans>Send Test Message</Trans>}
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>

      <Card data-testid="types-card">
        <CardHeader>
          <CardTitle>
            <Trans comment="Card title: choose which kinds of notification to receive">Notification Types</Trans>
          </CardTitle>
          <CardDescription>
            <Trans>What WhatsApp and Telegram tell you, and in which language.</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {types.map((ty) => (
            <div key={ty.key} className="flex items-center justify-between gap-3">
              <div>
                <Label htmlFor={`msg-type-${ty.key}`}>{ty.label}</Label>
                <p className="text-xs text-muted-foreground">{ty.hint}</p>
              </div>
              <Switch
                id={`msg-type-${ty.key}`}
                checked={form.notificationTypes[ty.key]}
                onCheckedChange={(on) => set({ notificationTypes: { ...form.notificationTypes, [ty.key]: on } })}
              />
            </div>
          ))}
          <div className="grid gap-1 sm:w-64">
            <Label htmlFor="msg-language">
              <Trans comment="Messaging settings: the language of Telegram and WhatsApp messages">
                Message language
              </Trans>
            </Label>
            <select
              id="msg-language"
              className="h-9 rounded-md border bg-background px-2 text-sm"
              value={form.language}
              onChange={(e) => set({ language: e.target.value as TForm["language"] })}
            >
              {LANGUAGES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.nativeName}
                </option>
              ))}
            </select>
          </div>
        </CardContent>
      </Card>

      {children}

      <Card data-testid="ethiopian-card">
        <CardHeader>
          <CardTitle>
            <Trans comment="Messaging page card title: features made for Ethiopia (languages, mobile money)">
              Ethiopian Features
            </Trans>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground">
            <li>
              <Trans>Payment notifications by mobile-money SMS.</Trans>
            </li>
            <li>
              <Trans>Messages in Amharic, Afaan Oromo and English.</Trans>
            </li>
          </ul>
        </CardContent>
      </Card>

      <div>
        <Button type="submit" disabled={save.isPending} data-testid="messaging-save">
          {save.isPending ? (
            <Trans>Saving...</Trans>
          ) : (
            <Trans comment="Button: save the messaging settings">Save Settings</Trans>
          )}
        </Button>
      </div>
    </form>
  );
}

/** What was sent to the user on push, Telegram and WhatsApp, and whether it arrived. */
export function RecentNotifications() {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const list = useQuery(trpc.notifications.history.queryOptions());
  const channelName = (c: string) =>
    c === "telegram"
      ? "Telegram"
      : c === "whatsapp"
        ? "WhatsApp"
        : c === "web_push"
          ? t({
              message: "Push",
              comment: "Notification history: channel name for notifications shown by the phone or browser (web push)",
            })
          : c;
  const statusBadge = (s: string) =>
    s === "sent" ? (
      <Badge variant="success">{t`Delivered`}</Badge>
    ) : s === "held" ? (
      <Badge variant="outline">{t`Held for quiet hours`}</Badge>
    ) : (
      <Badge variant="destructive">
        {t({
          message: "Not delivered",
          comment: "Notification history badge: the notification did not reach the phone",
        })}
      </Badge>
    );
  return (
    <Card data-testid="recent-notifications">
      <CardHeader>
        <CardTitle>
          <Trans comment="Messaging settings card title: notifications sent recently, and whether they arrived">
            Recent notifications
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>What was sent to you on each channel, and whether it arrived.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            <Trans>Loading…</Trans>
          </p>
        ) : list.isError ? (
          <LoadError
            title={<Trans>Your notifications could not be loaded.</Trans>}
            error={list.error}
            onRetry={list.refetch}
          />
        ) : list.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            <Trans>Nothing has been sent to you yet.</Trans>
          </p>
        ) : (
          <ul className="divide-y">
            {list.data.slice(0, 20).map((n) => (
              <li key={n.id} className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm">
                {/* A message quotes what people typed (addresses, links): it wraps anywhere rather than push the
                    page sideways or hide its end. */}
                <div className="min-w-0 flex-1 basis-48">
                  <p className="font-medium wrap-anywhere">{n.title}</p>
                  <p className="text-muted-foreground wrap-anywhere" data-testid="notification-body">
                    {n.body}
                  </p>
                </div>
                <div className="flex shrink-0 flex-col items-end gap-1">
                  <span className="flex items-center gap-1">
                    <Badge variant="outline">{channelName(n.channel)}</Badge>
                    {statusBadge(n.status)}
                  </span>
                  <time className="text-xs text-muted-foreground" dateTime={n.createdAt}>
                    {formatDate(n.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
