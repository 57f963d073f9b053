import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/ecommerce")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>E-commerce Integrations</Trans>}
      description={<Trans>Turn store orders into freight loads.</Trans>}
    />
  );
}
