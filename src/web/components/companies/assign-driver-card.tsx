import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { FieldError, Label } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { NativeSelect } from "../ui/textarea";

/**
 * On a load awarded to the carrier company, for its owners and dispatchers: who drives it, and (before pickup) giving
 * the trip to one of the company's drivers.
 */
export function AssignDriverCard({
  loadId,
  status,
  assignedDriverId,
}: {
  loadId: number;
  status: string;
  assignedDriverId: number | null;
}) {
  const { t } = useLingui();
  const online = useOnline();
  const queryClient = useQueryClient();
  const mine = useQuery(trpc.companies.mine.queryOptions());
  const assign = useMutation(trpc.companies.assignDriver.mutationOptions());
  const [driverId, setDriverId] = useState("");
  const [error, setError] = useState<string>();

  const members = mine.data?.members ?? [];
  const drivers = members.filter((m) => m.role === "driver");
  const current = members.find((m) => m.userId === assignedDriverId);
  const currentName = current ? `${current.firstName} ${current.lastName}` : "";
  const currentIsDriver = current?.role === "driver";
  const canAssign = status === "assigned";

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (!driverId) {
      setError(t`Choose one of the company's drivers`);
      return;
    }
    try {
      await assign.mutateAsync({ loadId, driverId: Number(driverId) });
      toast({
        title: t({ message: "Driver assigned", comment: "Notice title: a company's trip was given to a driver" }),
        variant: "success",
      });
      setDriverId("");
      await queryClient.invalidateQueries({ queryKey: trpc.loads.byId.queryKey({ loadId }) });
    } catch (err) {
      setError(errorInfo(err).message);
    }
  };

  return (
    <Card data-testid="assign-driver">
      <CardHeader>
        <CardTitle>
          <Trans comment="Card title on a load awarded to the company: which of its drivers runs the trip">
            Company trip
          </Trans>
        </CardTitle>
        <CardDescription data-testid="assigned-driver">
          {currentIsDriver ? (
            <Trans>{currentName} drives this trip.</Trans>
          ) : (
            <Trans>No driver of the company is assigned yet.</Trans>
          )}
        </CardDescription>
      </CardHeader>
      {canAssign && (
        <CardContent>
          {mine.isPending ? (
            <p className="text-sm text-muted-foreground" role="status">
              <Trans>Getting the company's drivers…</Trans>
            </p>
          ) : mine.isError ? (
            <LoadError
              title={<Trans>The company's drivers could not be loaded. Check your connection and try again.</Trans>}
              error={mine.error}
              onRetry={mine.refetch}
            />
          ) : drivers.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="no-drivers">
              <Trans>The company has no drivers yet. Invite one on the Company page.</Trans>
            </p>
          ) : (
            <form className="grid gap-3 sm:flex sm:items-end" onSubmit={(e) => void onSubmit(e)} noValidate>
              <div className="grid gap-2 sm:flex-1">
                <Label htmlFor={`assign-driver-${loadId}`}>
                  <Trans comment="Field label: choose which of the company's drivers runs the trip">Driver</Trans>
                </Label>
                <NativeSelect
                  id={`assign-driver-${loadId}`}
                  className="min-h-11"
                  value={driverId}
                  onChange={(e) => setDriverId(e.target.value)}
                  aria-invalid={!!error}
                  aria-describedby={error ? `assign-driver-${loadId}-error` : undefined}
                >
                  <option value="">
                    {t({ message: "Choose a driver", comment: "Empty choice of the driver list" })}
                  </option>
                  {drivers.map((d) => (
                    <option key={d.userId} value={d.userId}>
                      {d.firstName} {d.lastName}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <Button
                type="submit"
                className="min-h-11"
                disabled={assign.isPending || !online}
                data-testid="assign-driver-submit"
              >
                <Trans comment="Button: give the company's trip to the chosen driver">Assign driver</Trans>
              </Button>
            </form>
          )}
          <FieldError id={`assign-driver-${loadId}-error`}>{error}</FieldError>
        </CardContent>
      )}
    </Card>
  );
}
