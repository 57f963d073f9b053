import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Send } from "lucide-react";
import { useState } from "react";
import type { TTruckSearchResult } from "../../../shared/schemas/trucks";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { Label } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { NativeSelect } from "../ui/textarea";

/**
 * "Invite to bid" on a truck found near a pickup: the shipper picks one of their open loads (the one they came from,
 * when they came from a load) and the driver is told. Once invited to that load the button says "Invited".
 */
export function InviteToBid({ truck, fromLoadId }: { truck: TTruckSearchResult; fromLoadId?: number }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const driver = truck.driver.name;
  const invitedLabel = (
    <Trans comment="Button state on a truck the shipper already invited to bid on their load">Invited</Trans>
  );
  const invitedHere =
    fromLoadId !== undefined ? truck.invitedLoadIds.includes(fromLoadId) : truck.invitedLoadIds.length > 0;
  // Arriving from a load, the invitation is about that load: once sent, there is nothing more to do on this truck.
  if (invitedHere && fromLoadId !== undefined)
    return (
      <Button size="sm" variant="outline" disabled data-testid="invited">
        <Check aria-hidden />
        {invitedLabel}
      </Button>
    );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant={invitedHere ? "outline" : "default"} data-testid="invite-to-bid">
          {invitedHere ? <Check aria-hidden /> : <Send aria-hidden />}
          {invitedHere ? (
            invitedLabel
          ) : (
            <Trans comment="Button on a truck found by a shipper: ask its driver to bid on one of the shipper's loads">
              Invite to bid
            </Trans>
          )}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="invite-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Dialog title: ask a truck's driver to bid on one of the shipper's loads">
              Invite {driver} to bid
            </Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>The driver is told at once and can bid on the load from its page.</Trans>
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from the load the shipper came from. */}
        {open && <InviteForm truck={truck} fromLoadId={fromLoadId} onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function InviteForm({
  truck,
  fromLoadId,
  onDone,
}: {
  truck: TTruckSearchResult;
  fromLoadId?: number;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const open = useQuery(
    trpc.loads.minePage.queryOptions({ status: "posted", page: 1, pageSize: 100 }, { staleTime: 30_000 }),
  );
  const loads = (open.data?.items ?? []).filter((l) => l.source.type === "mytess");
  const [chosen, setChosen] = useState<number | undefined>(fromLoadId);
  // The load the shipper came from, else the first this driver was not invited to yet.
  const loadId = chosen ?? (loads.find((l) => !truck.invitedLoadIds.includes(l.id)) ?? loads[0])?.id;
  const [error, setError] = useState<string | null>(null);
  const invite = useMutation(
    trpc.trucks.invite.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({ message: "Invitation sent", comment: "Notice after a shipper invited a truck's driver to bid" }),
          variant: "success",
        });
        onDone();
        await queryClient.invalidateQueries({ queryKey: trpc.trucks.search.queryKey() });
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        setError(errorInfo(err).message);
        // An invitation sent from another tab or device shows as such.
        void queryClient.invalidateQueries({ queryKey: trpc.trucks.search.queryKey() });
      },
    }),
  );
  if (open.isPending)
    return (
      <p className="text-muted-foreground" data-testid="invite-loads-loading">
        <Trans comment="Shown while the shipper's open loads are fetched for the invitation">
          Loading your open loads...
        </Trans>
      </p>
    );
  if (open.isError)
    return (
      <LoadError
        title={<Trans>Your open loads could not be loaded.</Trans>}
        error={open.error}
        onRetry={open.refetch}
      />
    );
  if (!loads.length)
    return (
      <p className="text-muted-foreground" data-testid="invite-no-loads">
        <Trans>You have no load open for bids. Post a load first, then invite drivers to bid on it.</Trans>
      </p>
    );
  return (
    // On a phone the load's choice and the buttons are a finger's 44 px high.
    <form
      className="grid gap-4 [&_button]:min-h-11 [&_select]:h-11 sm:[&_button]:min-h-9 sm:[&_select]:h-9"
      onSubmit={(e) => {
        e.preventDefault();
        if (loadId === undefined) return;
        setError(null);
        invite.mutate({ id: truck.id, loadId });
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor="invite-load">
          <Trans comment="Label: which of the shipper's loads the driver is invited to bid on">Load</Trans>
        </Label>
        <NativeSelect
          id="invite-load"
          value={loadId ?? ""}
          aria-invalid={!!error}
          aria-describedby={error ? "invite-error" : undefined}
          onChange={(e) => {
            setChosen(Number(e.target.value));
            setError(null);
          }}
        >
          {loads.map((l) => {
            const load = `${l.title} · ${l.pickupLocation} → ${l.deliveryLocation}`;
            return (
              <option key={l.id} value={l.id}>
                {truck.invitedLoadIds.includes(l.id)
                  ? t({
                      message: `${load} (invited)`,
                      comment:
                        "A load in the invitation's choice that this truck's driver was already invited to; {load} is its title and route",
                    })
                  : `${load} · ${formatDate(l.pickupDate, { dateStyle: "medium" })}`}
              </option>
            );
          })}
        </NativeSelect>
        {error && (
          <p id="invite-error" role="alert" className="text-sm text-destructive" data-testid="invite-error">
            {error}
          </p>
        )}
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            <Trans>Cancel</Trans>
          </Button>
        </DialogClose>
        <Button type="submit" disabled={invite.isPending || loadId === undefined} data-testid="send-invitation">
          <Trans comment="Button: send the invitation to bid to the truck's driver">Send invitation</Trans>
        </Button>
      </DialogFooter>
    </form>
  );
}
