import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import type { TPushPreferences, TPushType } from "../../../shared/schemas/push";
import {
  currentSubscription,
  isPushSupported,
  pushPermission,
  subscribeToPush,
  type TPermission,
  unsubscribeFromPush,
} from "../../lib/push";
import { toast } from "../../lib/toast";
import { trpc, trpcClient } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Input, Label } from "../ui/input";
import { Switch } from "../ui/switch";

const zones = () => {
  try {
    const all =
      (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
    return ["UTC", ...all.filter((z) => z !== "UTC")];
  } catch {
    return ["UTC"];
  }
};

const withoutSubscriptions = <T extends { subscriptions: unknown }>({ subscriptions: _, ...p }: T) => p;

/** The push notification settings panel: permission, subscribe switch, types, quiet hours, mobile info, Save. */
export function PushPanel() {
  if (!isPushSupported()) {
    return (
      <Card data-testid="push-panel">
        <CardHeader>
          <CardTitle>
            <Trans>Push Notifications Not Available</Trans>
          </CardTitle>
          <CardDescription>
            <Trans>
              This browser does not support push notifications. Try a current version of Chrome, Edge, Firefox or
              Safari.
            </Trans>
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return <SupportedPushPanel />;
}

function SupportedPushPanel() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [permission, setPermission] = useState<TPermission>(pushPermission());
  const [subscribed, setSubscribed] = useState(false);
  const [busy, setBusy] = useState(false);
  const vapid = useQuery(trpc.notifications.vapidKey.queryOptions());
  const saved = useQuery(trpc.notifications.pushPreferences.queryOptions());
  const [form, setForm] = useState<TPushPreferences | null>(null);
  // The server's answer until the user changes something (a saved answer from before a reload is replaced by the fresh
  // one when it comes).
  const prefs = form ?? (saved.data ? withoutSubscriptions(saved.data) : null);
  const setPrefs = (p: TPushPreferences) => setForm(p);

  useEffect(() => {
    void currentSubscription().then((s) => setSubscribed(Boolean(s)));
  }, []);

  const save = useMutation(
    trpc.notifications.savePushPreferences.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.notifications.pushPreferences.queryKey(), data);
        setForm(null);
        toast({ title: t`Settings Saved`, variant: "success" });
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`Failed to save notification preferences. Please try again.`,
          variant: "destructive",
        }),
    }),
  );
  const test = useMutation(
    trpc.notifications.testPush.mutationOptions({
      onSuccess: ({ sent, total }) =>
        toast({
          title: t({ message: "Test Sent", comment: "Notice title after a test notification was sent" }),
          description: t`Sent to ${sent} of ${total} devices.`,
          variant: "success",
        }),
      onError: () => toast({ title: t`Test Failed`, variant: "destructive" }),
    }),
  );

  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) {
        const ok = vapid.data
          ? await subscribeToPush(vapid.data.publicKey, (s) => trpcClient.notifications.subscribePush.mutate(s))
          : false;
        setPermission(pushPermission());
        setSubscribed(ok);
        if (ok)
          toast({
            title: t({
              message: "Notifications Enabled",
              comment: "Notice title after push notifications were switched on",
            }),
            variant: "success",
          });
        else toast({ title: t`Failed to Enable`, variant: "destructive" });
      } else {
        try {
          await unsubscribeFromPush((endpoint) => trpcClient.notifications.unsubscribePush.mutate({ endpoint }));
          setSubscribed(false);
          toast({
            title: t({
              message: "Notifications Disabled",
              comment: "Notice title after push notifications were switched off",
            }),
          });
        } catch (err) {
          console.warn("Push unsubscribe failed", err);
          toast({ title: t`Error`, variant: "destructive" });
        }
      }
      await queryClient.invalidateQueries({ queryKey: trpc.notifications.pushPreferences.queryKey() });
    } finally {
      setBusy(false);
    }
  };

  const types: { key: TPushType; label: ReactNode; hint: ReactNode }[] = [
    { key: "loadAssigned", label: <Trans>Load assigned</Trans>, hint: <Trans>When a shipper accepts your bid.</Trans> },
    {
      key: "loadUpdates",
      label: <Trans>Load updates</Trans>,
      hint: <Trans>New bids, declined bids, pickup, delivery, completion and cancellation.</Trans>,
    },
    {
      key: "paymentReceived",
      label: <Trans>Payment received</Trans>,
      hint: <Trans>When a payment reaches you.</Trans>,
    },
    { key: "systemAlerts", label: <Trans>System alerts</Trans>, hint: <Trans>Maintenance and account notices.</Trans> },
    {
      key: "marketing",
      label: (
        <Trans comment="Notification type choice: news and offers from MyTess (not a marketplace)">Marketing</Trans>
      ),
      hint: <Trans>News and offers from MyTess.</Trans>,
    },
  ];

  return (
    <Card data-testid="push-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Trans comment="Card title: notifications shown by this phone or browser even when MyTess is closed (web push)">
            Push Notifications
          </Trans>
          {vapid.data?.sandbox && <Badge variant="warning">{t`Sandbox`}</Badge>}
        </CardTitle>
        <CardDescription>
          <Trans>Alerts on this device, even when MyTess is closed.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="flex items-center justify-between gap-3">
          <div className="text-sm">
            <Trans comment="Push settings: label before the browser's permission state">Permission:</Trans>{" "}
            <span data-testid="push-permission">
              {permission === "granted" ? (
                <Badge variant="success">
                  {t({ message: "Granted", comment: "Push settings: the browser allows notifications" })}
                </Badge>
              ) : permission === "denied" ? (
                <Badge variant="destructive">
                  {t({
                    message: "Denied",
                    comment: "Push settings: the browser's permission for notifications was refused",
                  })}
                </Badge>
              ) : (
                <Badge variant="outline">
                  {t({
                    message: "Not requested",
                    comment: "Push settings: the browser has not been asked for permission yet",
                  })}
                </Badge>
              )}
            </span>
          </div>
        </div>
        {permission === "denied" && (
          <p className="text-sm text-destructive" role="alert">
            <Trans>Notifications were blocked. Please enable them in your browser settings.</Trans>
          </p>
        )}
        <div className="flex items-center justify-between gap-3">
          <Label htmlFor="push-switch">
            <Trans>Push notifications on this device</Trans>
          </Label>
          <Switch
            id="push-switch"
            data-testid="push-switch"
            checked={subscribed}
            disabled={busy || !vapid.data || permission === "denied"}
            onCheckedChange={(on) => void toggle(on)}
          />
        </div>
        {subscribed && (
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={test.isPending}
              onClick={() =>
                test.mutate({
                  title: t`MyTess test notification`,
                  message: t`This is a test notification from MyTess.`,
                })
              }
            >
              <Trans>Send test notification</Trans>
            </Button>
          </div>
        )}

        {prefs && (
          <form
            className="grid gap-5"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(prefs);
            }}
          >
            <fieldset className="grid gap-3">
              <legend className="mb-2 text-sm font-medium">
                <Trans>Notification Types</Trans>
              </legend>
              {types.map((ty) => (
                <div key={ty.key} className="flex items-center justify-between gap-3">
                  <div>
                    <Label htmlFor={`push-type-${ty.key}`}>{ty.label}</Label>
                    <p className="text-xs text-muted-foreground">{ty.hint}</p>
                  </div>
                  <Switch
                    id={`push-type-${ty.key}`}
                    data-testid={`push-type-${ty.key}`}
                    checked={prefs.notificationTypes[ty.key]}
                    onCheckedChange={(on) =>
                      setPrefs({ ...prefs, notificationTypes: { ...prefs.notificationTypes, [ty.key]: on } })
                    }
                  />
                </div>
              ))}
            </fieldset>
            <fieldset className="grid gap-3">
              <legend className="mb-2 text-sm font-medium">
                <Trans comment="Push settings: hours when notifications are held back">Quiet Hours</Trans>
              </legend>
              <div className="flex items-center justify-between gap-3">
                <Label htmlFor="push-quiet">
                  <Trans>Hold notifications during quiet hours</Trans>
                </Label>
                <Switch
                  id="push-quiet"
                  data-testid="push-quiet"
                  checked={prefs.quietHours.enabled}
                  onCheckedChange={(on) => setPrefs({ ...prefs, quietHours: { ...prefs.quietHours, enabled: on } })}
                />
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                <div className="grid gap-1">
                  <Label htmlFor="push-quiet-start">
                    <Trans comment="Quiet hours: the time they start">From</Trans>
                  </Label>
                  <Input
                    id="push-quiet-start"
                    type="time"
                    required
                    value={prefs.quietHours.start}
                    onChange={(e) => setPrefs({ ...prefs, quietHours: { ...prefs.quietHours, start: e.target.value } })}
                  />
                </div>
                <div className="grid gap-1">
                  <Label htmlFor="push-quiet-end">
                    <Trans comment="Quiet hours: the time they end">Until</Trans>
                  </Label>
                  <Input
                    id="push-quiet-end"
                    type="time"
                    required
                    value={prefs.quietHours.end}
                    onChange={(e) => setPrefs({ ...prefs, quietHours: { ...prefs.quietHours, end: e.target.value } })}
                  />
                </div>
                <div className="grid gap-1">
                  <Label htmlFor="push-quiet-tz">
                    <Trans comment="Push settings: the time zone of the quiet hours">Time zone</Trans>
                  </Label>
                  <select
                    id="push-quiet-tz"
                    className="h-9 rounded-md border bg-background px-2 text-sm"
                    value={prefs.quietHours.timezone}
                    onChange={(e) =>
                      setPrefs({ ...prefs, quietHours: { ...prefs.quietHours, timezone: e.target.value } })
                    }
                  >
                    {zones().map((z) => (
                      <option key={z} value={z}>
                        {z}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <p className="text-xs text-muted-foreground">
                <Trans>Notifications that arrive during quiet hours are delivered when they end.</Trans>
              </p>
            </fieldset>
            <div className="rounded-md bg-muted p-3 text-sm" data-testid="push-mobile-info">
              <p className="font-medium">
                <Trans>On your phone</Trans>
              </p>
              <p className="text-muted-foreground">
                <Trans>
                  On Android, notifications work in Chrome and in the installed app. On iPhone and iPad, add MyTess to
                  your Home Screen first (iOS 16.4 or later), then turn notifications on from the installed app.
                </Trans>
              </p>
            </div>
            <div>
              <Button type="submit" disabled={save.isPending} data-testid="push-save">
                {save.isPending ? (
                  <Trans>Saving...</Trans>
                ) : (
                  <Trans comment="Button: save the form (profile, push settings)">Save</Trans>
                )}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
