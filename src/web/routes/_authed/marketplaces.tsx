import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "../../components/layout/page-header";
import { ConfigurationsTab } from "../../components/marketplaces/configurations-tab";
import { ManualSyncButton } from "../../components/marketplaces/manual-sync-button";
import { MonitoringTab } from "../../components/marketplaces/monitoring-tab";
import { SearchTab } from "../../components/marketplaces/search-tab";
import { SyncStatusCard } from "../../components/marketplaces/sync-status-card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";

export const Route = createFileRoute("/_authed/marketplaces")({ component: Page });

const TAB = "px-2 text-xs sm:px-3 sm:text-sm";

/** SPEC §2: the user's load board integrations: configurations, live search, and sync monitoring. */
function Page() {
  return (
    <div className="grid gap-6">
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
