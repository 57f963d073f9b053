import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";
import { LoadAlertsCard } from "../../components/loads/load-alerts-card";
import { MessagingSettings, RecentNotifications } from "../../components/notifications/messaging-settings";
import { PushPanel } from "../../components/notifications/push-panel";

export const Route = createFileRoute("/_authed/messaging")({ component: Page });

function Page() {
  const { me } = Route.useRouteContext();
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={<Trans comment="Page title: settings for Telegram, WhatsApp and SMS messages">Messaging</Trans>}
        description={<Trans>Configure your messaging and notification preferences</Trans>}
      />
      <div className="grid gap-4">
        <MessagingSettings>{me.userType === "driver" && <LoadAlertsCard />}</MessagingSettings>
        <PushPanel />
        <RecentNotifications />
      </div>
    </div>
  );
}
