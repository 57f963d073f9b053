import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { useState } from "react";
import { PageHeader } from "../../components/layout/page-header";
import { IntegrationFormDialog } from "../../components/stores/integration-form-dialog";
import { IntegrationsTab } from "../../components/stores/integrations-tab";
import { OrdersTab } from "../../components/stores/orders-tab";
import type { TIntegration } from "../../components/stores/shared";
import { Button } from "../../components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";

export const Route = createFileRoute("/_authed/ecommerce")({ component: Page });

const TAB = "px-2 text-xs sm:px-3 sm:text-sm";

/** The user's store integrations and the orders they bring, which shippers turn into loads. */
function Page() {
  const { me } = Route.useRouteContext();
  // null: closed; "new": adding; an integration: editing it.
  const [dialog, setDialog] = useState<TIntegration | "new" | null>(null);
  const editing = dialog !== null && dialog !== "new" ? dialog : null;
  return (
    <div className="grid gap-6">
      <PageHeader
        title={
          <Trans comment="Page title: connected online stores whose orders become loads">E-commerce Integrations</Trans>
        }
        description={<Trans>Turn store orders into freight loads.</Trans>}
        actions={
          <Button onClick={() => setDialog("new")} data-testid="add-integration">
            <Plus aria-hidden />
            <Trans>Add Integration</Trans>
          </Button>
        }
      />
      <Tabs defaultValue="integrations">
        <TabsList fullWidth className="sm:inline-flex sm:w-auto">
          <TabsTrigger value="integrations" className={TAB} data-testid="tab-integrations">
            <Trans comment="E-commerce page tab: the connected online stores">Integrations</Trans>
          </TabsTrigger>
          <TabsTrigger value="orders" className={TAB} data-testid="tab-orders">
            <Trans comment="E-commerce page tab: orders imported from the stores">Orders</Trans>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="integrations">
          <IntegrationsTab onAdd={() => setDialog("new")} onEdit={setDialog} />
        </TabsContent>
        <TabsContent value="orders">
          <OrdersTab canConvert={me.userType === "shipper"} />
        </TabsContent>
      </Tabs>
      <IntegrationFormDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        editing={editing}
      />
    </div>
  );
}
