import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/shipping")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>Package Delivery Services</Trans>}
      description={<Trans>Compare parcel rates and track packages across FedEx, UPS and USPS.</Trans>}
    />
  );
}
