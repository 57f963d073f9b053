import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/messaging")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>Messaging</Trans>}
      description={<Trans>Configure your messaging and notification preferences</Trans>}
    />
  );
}
