import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/shipper")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>Shipper Dashboard</Trans>}
      description={<Trans>Post loads, review bids and follow your shipments.</Trans>}
    />
  );
}
