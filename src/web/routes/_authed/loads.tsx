import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";

export const Route = createFileRoute("/_authed/loads")({ component: Page });

function Page() {
  return (
    <PageHeader
      title={<Trans>Load Board</Trans>}
      description={<Trans>Browse posted loads from MyTess and external load boards.</Trans>}
    />
  );
}
