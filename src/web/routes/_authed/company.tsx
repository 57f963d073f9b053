import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { CompanyView } from "../../components/companies/company-view";
import { CreateCompanyForm } from "../../components/companies/create-company-form";
import { PageHeader } from "../../components/layout/page-header";
import { Button } from "../../components/ui/button";
import { trpc } from "../../lib/trpc";

export const Route = createFileRoute("/_authed/company")({ component: CompanyPage });

/** The user's company: make one, or see its members; owners invite and manage them. */
function CompanyPage() {
  const { me } = Route.useRouteContext();
  const mine = useQuery(trpc.companies.mine.queryOptions());
  return (
    <div className="max-w-3xl">
      <PageHeader
        title={<Trans comment="Account menu item and page title: the company the user belongs to">Company</Trans>}
      />
      {mine.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans>Getting your company…</Trans>
        </p>
      ) : mine.isError && mine.data === undefined ? (
        <div className="grid justify-items-start gap-3" role="alert" data-testid="company-error">
          <p className="text-sm text-destructive">
            <Trans>Your company could not be shown. Check your connection and try again.</Trans>
          </p>
          <Button variant="outline" className="min-h-11" onClick={() => void mine.refetch()}>
            <Trans comment="Button: load again after a failure">Try again</Trans>
          </Button>
        </div>
      ) : mine.data ? (
        <CompanyView mine={mine.data} myId={me.id} />
      ) : (
        <CreateCompanyForm defaultKind={me.userType === "shipper" ? "shipper" : "carrier"} />
      )}
    </div>
  );
}
