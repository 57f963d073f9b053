import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";
import { VerificationPanel } from "../../components/verification/verification-panel";

export const Route = createFileRoute("/_authed/verification")({ component: Page });

function Page() {
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={
          <Trans comment="Page title: the user's business verification (documents checked by MyTess)">
            Verification
          </Trans>
        }
        description={<Trans>Verified shippers and carriers show a badge on their loads and bids.</Trans>}
      />
      <VerificationPanel />
    </div>
  );
}
