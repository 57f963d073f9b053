import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { useState } from "react";
import type { TTruck } from "../../../shared/schemas/trucks";
import { weightIn } from "../../../shared/units";
import { PageHeader } from "../../components/layout/page-header";
import { WrongRole } from "../../components/layout/wrong-role";
import { EquipmentLabel } from "../../components/loads/equipment-label";
import { TruckFormDialog } from "../../components/trucks/truck-form-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDeleteDialog } from "../../components/ui/confirm-delete-dialog";
import { LoadError } from "../../components/ui/load-error";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";

export const Route = createFileRoute("/_authed/trucks")({ component: TrucksPage });

function TrucksPage() {
  const { me } = Route.useRouteContext();
  const title = <Trans comment="Header link and page title: the driver's posted truck availabilities">My trucks</Trans>;
  const description = <Trans>Tell shippers where and when your truck is free.</Trans>;
  if (me.userType !== "driver")
    return (
      <div>
        <PageHeader title={title} description={description} />
        <WrongRole dashboardFor="driver" />
      </div>
    );
  return <MyTrucks title={title} description={description} />;
}

function MyTrucks({ title, description }: { title: React.ReactNode; description: React.ReactNode }) {
  const [posting, setPosting] = useState(false);
  const trucks = useQuery(trpc.trucks.mine.queryOptions(undefined, { staleTime: 30_000 }));
  return (
    <div className="grid gap-4">
      <PageHeader
        title={title}
        description={description}
        actions={
          <Button onClick={() => setPosting(true)} data-testid="post-truck">
            <Plus aria-hidden />
            <Trans>Post a truck</Trans>
          </Button>
        }
      />
      <TruckFormDialog open={posting} onOpenChange={setPosting} />
      {trucks.isPending && (
        <Card className="p-6 text-center text-muted-foreground" data-testid="trucks-loading">
          <Trans comment="Shown while the driver's posted trucks are fetched from the server">
            Loading your trucks...
          </Trans>
        </Card>
      )}
      {trucks.isError && (
        <LoadError
          card
          testId="trucks-error"
          title={<Trans>Your trucks could not be loaded.</Trans>}
          error={trucks.error}
          onRetry={trucks.refetch}
        />
      )}
      {trucks.data?.length === 0 && (
        <Card className="p-6 text-center text-muted-foreground" data-testid="no-trucks">
          <Trans>No trucks posted yet. Post one so shippers near you can find it.</Trans>
        </Card>
      )}
      <ul className="grid gap-3" data-testid="truck-list">
        {trucks.data?.map((truck) => (
          <TruckRow key={truck.id} truck={truck} />
        ))}
      </ul>
    </div>
  );
}

function TruckRow({ truck }: { truck: TTruck }) {
  const { t } = useLingui();
  const { formatDate, formatNumber, units, weightUnit } = usePreferences();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.trucks.delete.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        toast({ title: t({ message: "Truck deleted", comment: "Notice title after a posted truck was deleted" }) });
        await queryClient.invalidateQueries({ queryKey: trpc.trucks.mine.queryKey() });
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({ title: t`Error`, description: t`The truck could not be deleted.`, variant: "destructive" });
      },
    }),
  );
  const from = formatDate(truck.availableFrom, { dateStyle: "medium" });
  const to = formatDate(truck.availableTo, { dateStyle: "medium" });
  const capacity = formatNumber(Math.round(weightIn(truck.capacityLbs, units)));
  const destination =
    truck.destination?.name ?? t({ message: "Anywhere", comment: "A truck's destination: it would go anywhere" });
  return (
    <li>
      <Card className="grid gap-2 p-4" data-testid="truck-row" data-expired={truck.expired || undefined}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="font-medium" data-testid="truck-route">
            {truck.origin.name} → {destination}
          </div>
          {truck.expired && (
            <Badge variant="secondary" data-testid="truck-expired">
              {t({ message: "Expired", comment: "Badge on a posted truck whose free dates are over" })}
            </Badge>
          )}
        </div>
        <div className="text-sm text-muted-foreground" data-testid="truck-dates">
          <Trans comment="A posted truck: the days it is free">
            Free {from} – {to}
          </Trans>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="truck-details">
          <EquipmentLabel type={truck.equipmentType} />
          <span>
            {capacity} {weightUnit}
          </span>
          {truck.plate && <span className="font-mono">{truck.plate}</span>}
        </div>
        <div className="flex justify-end">
          <ConfirmDeleteDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={<Trans comment="Dialog title: delete a posted truck">Delete this truck?</Trans>}
            description={
              <Trans>
                Shippers will no longer find it ({truck.origin.name} → {destination}).
              </Trans>
            }
            pending={remove.isPending}
            onConfirm={() => remove.mutate({ id: truck.id })}
            testIds={{ trigger: "delete-truck", dialog: "delete-truck-dialog", confirm: "confirm-delete-truck" }}
          />
        </div>
      </Card>
    </li>
  );
}
