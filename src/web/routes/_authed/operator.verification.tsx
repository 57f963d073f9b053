import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { NotFound } from "../../components/layout/not-found";
import { PageHeader } from "../../components/layout/page-header";
import { ReviewPanel } from "../../components/verification/review-panel";
import { trpc } from "../../lib/trpc";

export const Route = createFileRoute("/_authed/operator/verification")({ component: Page });

/** Operators only: everyone else sees the not-found page, as the server answers them 404. */
function Page() {
  const operator = useQuery(trpc.verification.operator.queryOptions());
  if (operator.isPending)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Loading…</Trans>
      </p>
    );
  if (!operator.data?.operator) return <NotFound />;
  return (
    <div className="max-w-3xl">
      <PageHeader
        title={<Trans comment="Page title: operators review verification submissions">Verification review</Trans>}
      />
      <ReviewPanel />
    </div>
  );
}
