import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, Link2, Link2Off } from "lucide-react";
import { useState } from "react";
import type { TTrackingLink } from "../../../shared/schemas/tracking";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent } from "../ui/card";
import { LoadError } from "../ui/load-error";

/**
 * The shipper's "Share tracking link" card on a load after the award: makes a link for the consignee (the trip's
 * places, track, ETA and stage, nothing else), copies it, makes a new one (the old one stops working) or turns it
 * off. The link's address is shown only right after it is made: the server keeps only its hash.
 */
export function TrackingLinkControl({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const [made, setMade] = useState<TTrackingLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const state = useQuery(trpc.tracking.link.queryOptions({ loadId }, { retry: false }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tracking.link.queryKey({ loadId }) });
  const create = useMutation(
    trpc.tracking.createLink.mutationOptions({
      onSuccess: (link) => {
        setMade(link);
        setError(null);
        void refresh();
      },
      onError: (err) => setError(errorInfo(err).message),
    }),
  );
  const revoke = useMutation(
    trpc.tracking.revokeLink.mutationOptions({
      onSuccess: () => {
        setMade(null);
        setError(null);
        void refresh();
        toast({
          title: t`The tracking link is turned off`,
          description: t`Whoever has it now sees that it no longer works.`,
          variant: "success",
        });
      },
      onError: (err) => setError(errorInfo(err).message),
    }),
  );
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t`Tracking link copied`, description: url, variant: "success" });
    } catch {
      toast({
        title: t({ message: "Copy Failed", comment: "Notice title: copying to the clipboard did not work" }),
        description: t`Please copy the address manually`,
        variant: "destructive",
      });
    }
  };
  const live = state.data?.link ?? null;
  const busy = create.isPending || revoke.isPending;
  const expiresAt = live?.expiresAt ?? made?.expiresAt ?? null;
  const expiry = expiresAt ? formatDate(expiresAt, { dateStyle: "medium", timeStyle: "short" }) : null;
  const madeAt = live ? formatDate(live.createdAt, { dateStyle: "short", timeStyle: "short" }) : "";
  return (
    <Card
      data-testid="tracking-link"
      aria-label={t({
        message: "Share tracking link",
        comment: "Accessible name of the shipper's card that makes a tracking link for the receiver of the goods",
      })}
    >
      <CardContent className="grid gap-3 pt-5 text-sm">
        <div>
          <h2 className="font-medium">
            <Trans comment="Heading of the shipper's card that makes a tracking link for the receiver of the goods">
              Share tracking link
            </Trans>
          </h2>
          <p className="text-muted-foreground">
            <Trans>
              Whoever opens the link sees the route, the truck's last position, the ETA and the trip's stage, without
              signing in: no names, phone numbers or prices.
            </Trans>
          </p>
        </div>
        {state.isPending && (
          <p className="text-muted-foreground" role="status">
            <Trans comment="Shown while the state of the load's tracking link is fetched">Loading...</Trans>
          </p>
        )}
        {state.isError && (
          <LoadError
            title={<Trans>The tracking link's state could not be loaded.</Trans>}
            error={state.error}
            onRetry={state.refetch}
          />
        )}
        {made && (
          <div className="flex items-center gap-2">
            <label className="sr-only" htmlFor={`tracking-url-${loadId}`}>
              <Trans comment="Label of the field holding the tracking link's address, for screen readers">
                Tracking link
              </Trans>
            </label>
            <input
              id={`tracking-url-${loadId}`}
              readOnly
              value={made.url}
              onFocus={(e) => e.currentTarget.select()}
              className="min-h-11 min-w-0 flex-1 rounded-md border bg-white px-2 font-mono text-xs sm:min-h-9"
              data-testid="tracking-link-url"
            />
            <Button
              type="button"
              variant="outline"
              className="min-h-11 sm:min-h-9"
              onClick={() => void copy(made.url)}
              data-testid="tracking-link-copy"
            >
              <Copy aria-hidden />
              <Trans comment="Button: copy the text (promotion text, webhook address) to the clipboard">Copy</Trans>
            </Button>
          </div>
        )}
        {live && !made && (
          <p data-testid="tracking-link-on">
            <Trans>
              A tracking link made {madeAt} works. It cannot be shown again: make a new one to copy it (the old one then
              stops working).
            </Trans>
          </p>
        )}
        {(live || made) && (
          <p className="text-muted-foreground" data-testid="tracking-link-expiry">
            {expiry ? (
              <Trans>It works until {expiry}.</Trans>
            ) : (
              <Trans>It works until 7 days after the delivery.</Trans>
            )}
          </p>
        )}
        {error && (
          <p className="text-destructive" role="alert" data-testid="tracking-link-error">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            className="min-h-11 sm:min-h-9"
            disabled={busy || state.isPending}
            onClick={() => create.mutate({ loadId })}
            data-testid="tracking-link-create"
          >
            <Link2 aria-hidden />
            {live || made ? (
              <Trans comment="Button: make a new tracking link, replacing the old one">New link</Trans>
            ) : (
              <Trans comment="Button: make a tracking link for the receiver of the goods">Share tracking link</Trans>
            )}
          </Button>
          {(live || made) && (
            <Button
              type="button"
              variant="outline"
              className="min-h-11 sm:min-h-9"
              disabled={busy}
              onClick={() => revoke.mutate({ loadId })}
              data-testid="tracking-link-revoke"
            >
              <Link2Off aria-hidden />
              <Trans comment="Button: turn the tracking link off so it no longer works">Turn off link</Trans>
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
