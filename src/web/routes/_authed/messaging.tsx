import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";
import { MessagingSettings, RecentNotifications } from "../../components/messaging/messaging-settings";
import { PushPanel } from "../../components/push/push-panel";

export const Route = createFileRoute("/_authed/messaging")({ component: Page });

function Page() {
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={<Trans>Messaging</Trans>}
        description={<Trans>Configure your messaging and notification preferences</Trans>}
      />
      <div className="grid gap-4">
        <MessagingSettings />
        <PushPanel />
        <RecentNotifications />
      </div>
    </div>
  );
}
