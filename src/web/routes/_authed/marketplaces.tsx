import { Trans, useLingui } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { useEffect } from "react";
import { ConfigurationsTab } from "../../components/boards/configurations-tab";
import { ManualSyncButton } from "../../components/boards/manual-sync-button";
import { MonitoringTab } from "../../components/boards/monitoring-tab";
import { SearchTab } from "../../components/boards/search-tab";
import { useRefreshMarketplaces } from "../../components/boards/shared";
import { SyncStatusCard } from "../../components/boards/sync-status-card";
import { PageHeader } from "../../components/layout/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { toast } from "../../lib/toast";

// Connect 123Loadboard sends the browser back here (through the server's callback) with connect=connected, denied or
// failed, and board=<configuration id>. Hand-written, so the route table does not pull in a schema library.
type TSearch = { connect?: "connected" | "denied" | "failed"; board?: number };
const validateSearch = (raw: Record<string, unknown>): TSearch => {
  const connect =
    raw.connect === "connected" || raw.connect === "denied" || raw.connect === "failed" ? raw.connect : undefined;
  const board = Number(raw.board);
  return { connect, board: connect && Number.isSafeInteger(board) && board > 0 ? board : undefined };
};

export const Route = createFileRoute("/_authed/marketplaces")({ validateSearch, component: Page });

const TAB = "px-2 text-xs sm:px-3 sm:text-sm";

/** How a connection came back: said once, then the address is cleaned so that a reload does not say it again. */
function ConnectResult() {
  const { t } = useLingui();
  const { connect } = Route.useSearch();
  const navigate = Route.useNavigate();
  const refresh = useRefreshMarketplaces();
  useEffect(() => {
    if (!connect) return;
    if (connect === "connected")
      toast({
        title: t({
          message: "123Loadboard Connected",
          comment:
            "Notice title on the Marketplaces page: the user allowed MyTess on 123Loadboard, so the board is connected",
        }),
        description: t`MyTess can now search loads with your 123Loadboard account.`,
        variant: "success",
      });
    else
      toast({
        title: t`Connection Failed`,
        description:
          connect === "denied"
            ? t`You did not allow MyTess on 123Loadboard; nothing was connected.`
            : t`The connection to 123Loadboard was not completed; the board's card says why.`,
        variant: "destructive",
      });
    void refresh();
    void navigate({ to: "/marketplaces", search: {}, replace: true });
  }, [connect, navigate, refresh, t]);
  return null;
}

/** The user's load board integrations: configurations, live search, and sync monitoring. */
function Page() {
  return (
    <div className="grid gap-6">
      <ConnectResult />
      <PageHeader
        title={<Trans comment="Page title: outside load boards connected to MyTess">Marketplace Integrations</Trans>}
        description={<Trans>Connect external load boards and keep their loads in sync.</Trans>}
        actions={<ManualSyncButton />}
      />
      <SyncStatusCard />
      <Tabs defaultValue="configurations">
        <TabsList fullWidth className="sm:inline-flex sm:w-auto">
          <TabsTrigger value="configurations" className={TAB} data-testid="tab-configurations">
            <Trans comment="Marketplaces page tab: the connected outside boards and their settings">
              Configurations
            </Trans>
          </TabsTrigger>
          <TabsTrigger value="search" className={TAB} data-testid="tab-search">
            <Trans comment="Marketplaces page tab: search the connected outside boards for loads">Search Loads</Trans>
          </TabsTrigger>
          <TabsTrigger value="monitoring" className={TAB} data-testid="tab-monitoring">
            <Trans comment="Marketplaces page tab: the history of board syncs">Monitoring</Trans>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="configurations">
          <ConfigurationsTab />
        </TabsContent>
        <TabsContent value="search">
          <SearchTab />
        </TabsContent>
        <TabsContent value="monitoring">
          <MonitoringTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
