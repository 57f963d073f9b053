import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plug, Plus } from "lucide-react";
import { useState } from "react";
import { SYNC_STATUS_REFETCH_MS } from "../../../shared/schemas/boards";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { MarketplaceCard } from "./marketplace-card";
import { MarketplaceFormDialog } from "./marketplace-form-dialog";
import { SavedLanes } from "./saved-lanes";
import type { TMarketplace } from "./shared";

/** The user's board configurations, with Add Marketplace and, per board, its actions; then the lanes sync searches. */
export function ConfigurationsTab() {
  const list = useQuery(trpc.boards.list.queryOptions(undefined, { refetchInterval: SYNC_STATUS_REFETCH_MS }));
  // null: closed; "new": adding; a configuration: editing it.
  const [dialog, setDialog] = useState<TMarketplace | "new" | null>(null);
  const editing = dialog !== null && dialog !== "new" ? dialog : null;
  const addButton = (
    <Button onClick={() => setDialog("new")} data-testid="add-marketplace">
      <Plus aria-hidden />
      <Trans comment="Button and dialog title: connect a new outside load board">Add Marketplace</Trans>
    </Button>
  );

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          <Trans>Your load board accounts. Credentials are stored sealed and never shown again.</Trans>
        </p>
        <div>{addButton}</div>
      </div>
      {list.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans>Loading your marketplaces…</Trans>
        </p>
      ) : list.isError ? (
        <LoadError
          title={<Trans>Your marketplaces could not be loaded.</Trans>}
          error={list.error}
          onRetry={list.refetch}
        />
      ) : list.data.length === 0 ? (
        <Card className="grid justify-items-center gap-3 p-8 text-center" data-testid="no-marketplaces">
          <Plug className="size-8 text-muted-foreground" aria-hidden />
          <p className="font-medium">
            <Trans>No marketplace connected yet</Trans>
          </p>
          <p className="max-w-md text-sm text-muted-foreground">
            <Trans>Add DAT, Truckstop, 123Loadboard or your own JSON load feed to search and sync its loads.</Trans>
          </p>
          <Button variant="outline" onClick={() => setDialog("new")} data-testid="add-first-marketplace">
            <Plus aria-hidden />
            <Trans>Add your first board</Trans>
          </Button>
        </Card>
      ) : (
        <div className="grid gap-3">
          {list.data.map((c) => (
            <MarketplaceCard key={c.id} config={c} onEdit={() => setDialog(c)} />
          ))}
        </div>
      )}
      <MarketplaceFormDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        editing={editing}
      />
      <div className="mt-2 border-t pt-6">
        <SavedLanes />
      </div>
    </div>
  );
}
