import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/marketplaces")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>Marketplace Integrations</Trans>}
      description={<Trans>Connect external load boards and keep their loads in sync.</Trans>}
    />
  );
}
