import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/driver")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>Driver Dashboard</Trans>}
      description={<Trans>Find loads near you, bid and run your trips.</Trans>}
    />
  );
}
