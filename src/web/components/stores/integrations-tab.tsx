import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plus, Store } from "lucide-react";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { IntegrationCard } from "./integration-card";
import { ECOMMERCE_REFETCH_MS, type TIntegration } from "./shared";

/** The user's store integrations, each with its actions; empty, an invitation to add one. */
export function IntegrationsTab({ onAdd, onEdit }: { onAdd: () => void; onEdit: (i: TIntegration) => void }) {
  const list = useQuery(trpc.stores.integrations.queryOptions(undefined, { refetchInterval: ECOMMERCE_REFETCH_MS }));
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        <Trans>Your stores. Credentials are stored sealed and never shown again.</Trans>
      </p>
      {list.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans>Loading your integrations…</Trans>
        </p>
      ) : list.isError ? (
        <LoadError
          title={<Trans>Your integrations could not be loaded.</Trans>}
          error={list.error}
          onRetry={list.refetch}
        />
      ) : list.data.length === 0 ? (
        <Card className="grid justify-items-center gap-3 p-8 text-center" data-testid="no-integrations">
          <Store className="size-8 text-muted-foreground" aria-hidden />
          <p className="font-medium">
            <Trans>No store connected yet</Trans>
          </p>
          <p className="max-w-md text-sm text-muted-foreground">
            <Trans>
              Add your Shopify, Amazon or Alibaba.com store: its orders are imported and each can become a load posted
              from your warehouse.
            </Trans>
          </p>
          <Button variant="outline" onClick={onAdd} data-testid="add-first-integration">
            <Plus aria-hidden />
            <Trans>Add your first store</Trans>
          </Button>
        </Card>
      ) : (
        <div className="grid gap-3">
          {list.data.map((i) => (
            <IntegrationCard key={i.id} integration={i} onEdit={() => onEdit(i)} />
          ))}
        </div>
      )}
    </div>
  );
}
