import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { POD_ANSWER_MS } from "../../../shared/schemas/trips";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { isQueued, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { FieldError, Label } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { Textarea } from "../ui/textarea";

/** What the driver's delivery event carries. */
type TDeliveryDetail = { receiverName?: string; documentIds?: number[] };

/** The proof itself: receiver, time, photos and signature, read from the timeline's delivery and the documents. */
function PodProof({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const timeline = useQuery(trpc.loads.timeline.queryOptions({ loadId }, { staleTime: 0 }));
  const documents = useQuery(trpc.documents.list.queryOptions({ loadId }, { staleTime: 0 }));
  if (timeline.isPending || documents.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans comment="Shown while the proof of delivery is fetched from the server">Loading the proof...</Trans>
      </p>
    );
  if (timeline.isError || documents.isError)
    return (
      <LoadError
        title={<Trans>The proof of delivery could not be loaded. Check your connection and try again.</Trans>}
        error={timeline.error ?? documents.error}
        onRetry={() => Promise.all([timeline.refetch(), documents.refetch()])}
      />
    );
  const delivered = timeline.data.findLast((e) => e.kind === "delivered");
  const disputed = timeline.data.findLast((e) => e.kind === "disputed");
  const detail = (delivered?.detail ?? {}) as TDeliveryDetail;
  const ids = new Set(detail.documentIds ?? []);
  const proof = documents.data.filter((d) => ids.has(d.id));
  if (!delivered)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>The driver recorded this delivery without a proof.</Trans>
      </p>
    );
  return (
    <div className="grid gap-3" data-testid="pod-proof">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          <Trans comment="Proof of delivery: label before the receiver's name">Received by</Trans>
        </dt>
        <dd data-testid="pod-receiver">{detail.receiverName ?? "—"}</dd>
        <dt className="text-muted-foreground">
          <Trans comment="Proof of delivery: label before the date and time of the delivery">Delivered</Trans>
        </dt>
        <dd>{formatDate(delivered.at, { dateStyle: "medium", timeStyle: "short" })}</dd>
        {disputed && (
          <>
            <dt className="text-muted-foreground">
              <Trans comment="Proof of delivery: label before the reason the shipper gave for the dispute">
                Problem raised
              </Trans>
            </dt>
            <dd>{String((disputed.detail as { reason?: string } | null)?.reason ?? "")}</dd>
          </>
        )}
      </dl>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {proof.map((d, i) => (
          <li key={d.id}>
            <a href={d.url} target="_blank" rel="noreferrer" className="block">
              <img
                src={d.url}
                alt={
                  d.type === "pod"
                    ? t({ message: "The receiver's signature", comment: "Image description in the proof of delivery" })
                    : t`Proof of delivery ${i + 1}`
                }
                className="aspect-square w-full rounded-md border bg-white object-contain"
                data-testid={d.type === "pod" ? "pod-signature" : "pod-photo"}
              />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The shipper looks at the driver's proof of delivery and accepts it (the load is completed) or, within 48 hours,
 * raises a problem with a reason (the load is disputed until the shipper accepts it).
 */
export function PodReviewDialog({ loadId, status }: { loadId: number; status: "delivered" | "disputed" }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [disputing, setDisputing] = useState(false);
  // Accepting completes the load (and releases a funded payment): asked once more, like a withdrawal.
  const [confirmingAccept, setConfirmingAccept] = useState(false);
  const [reasonError, setReasonError] = useState<string>();
  const done = async (title: string) => {
    setOpen(false);
    setDisputing(false);
    setConfirmingAccept(false);
    toast({ title, variant: "success" });
    await queryClient.invalidateQueries();
  };
  const failed = (err: unknown) => {
    if (!isQueued(err))
      toast({
        title: t`Error`,
        description: err instanceof Error ? err.message : t`Please try again.`,
        variant: "destructive",
      });
  };
  const accept = useMutation(
    trpc.loads.acceptDelivery.mutationOptions({
      onSuccess: () =>
        done(
          t({ message: "Delivery accepted", comment: "Notice title after the shipper accepted the proof of delivery" }),
        ),
      onError: failed,
    }),
  );
  const dispute = useMutation(
    trpc.loads.disputeDelivery.mutationOptions({
      onSuccess: () =>
        done(t({ message: "Problem raised", comment: "Notice title after the shipper disputed the delivery" })),
      onError: failed,
    }),
  );
  const timeline = useQuery({ ...trpc.loads.timeline.queryOptions({ loadId }, { staleTime: 0 }), enabled: open });
  const deliveredAt = timeline.data?.findLast((e) => e.kind === "delivered")?.at;
  const deadline = deliveredAt ? new Date(Date.parse(deliveredAt) + POD_ANSWER_MS) : null;
  const mayDispute = status === "delivered" && (!deadline || deadline.getTime() > Date.now());
  const submitDispute = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const reason = String(new FormData(e.currentTarget).get("reason") ?? "").trim();
    if (!reason) {
      setReasonError(t`Say what is wrong with the delivery.`);
      return;
    }
    dispute.mutate({ loadId, reason });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) {
          setDisputing(false);
          setConfirmingAccept(false);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button size="lg" data-testid="review-delivery">
          <FileCheck />
          <Trans comment="Button on the shipper's delivered load: open the driver's proof of delivery">
            Review delivery
          </Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} width="lg" data-testid="pod-review">
        <DialogHeader>
          <DialogTitle>
            <Trans>Proof of delivery</Trans>
          </DialogTitle>
          <DialogDescription>
            {mayDispute && deadline ? (
              <Trans>
                Accept it to complete the load, or raise a problem until{" "}
                {formatDate(deadline, { dateStyle: "medium", timeStyle: "short" })}. Without an answer the load
                completes by itself then.
              </Trans>
            ) : (
              <Trans>Accept it to complete the load.</Trans>
            )}
          </DialogDescription>
        </DialogHeader>
        {open && <PodProof loadId={loadId} />}
        {disputing ? (
          <form className="grid gap-2" onSubmit={submitDispute} noValidate>
            <Label htmlFor="dispute-reason">
              <Trans comment="Field label: why the shipper disputes the delivery">What is wrong?</Trans>
            </Label>
            <Textarea
              id="dispute-reason"
              name="reason"
              maxLength={1000}
              className="text-base"
              aria-invalid={Boolean(reasonError)}
              aria-describedby={reasonError ? "dispute-reason-error" : undefined}
              onChange={() => setReasonError(undefined)}
            />
            <FieldError id="dispute-reason-error">{reasonError}</FieldError>
            <DialogFooter>
              <Button type="button" size="lg" variant="outline" onClick={() => setDisputing(false)}>
                <Trans>Back</Trans>
              </Button>
              <Button type="submit" size="lg" variant="destructive" disabled={dispute.isPending}>
                <Trans comment="Button: send the dispute of the delivery with its reason">Raise the problem</Trans>
              </Button>
            </DialogFooter>
          </form>
        ) : confirmingAccept ? (
          <div className="grid gap-3" role="alert" data-testid="accept-delivery-question">
            <p className="text-sm">
              <Trans>Accept this delivery? The load is then completed, and this cannot be undone.</Trans>
            </p>
            <DialogFooter>
              <Button type="button" size="lg" variant="outline" onClick={() => setConfirmingAccept(false)}>
                <Trans>Back</Trans>
              </Button>
              <Button
                size="lg"
                disabled={accept.isPending}
                onClick={() => accept.mutate({ loadId })}
                data-testid="accept-delivery-confirm"
              >
                <Trans comment="Button: yes, accept the proof of delivery and complete the load">
                  Yes, accept delivery
                </Trans>
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <DialogFooter>
            {mayDispute && (
              <Button size="lg" variant="outline" onClick={() => setDisputing(true)} data-testid="dispute-delivery">
                <Trans comment="Button: dispute the delivery (something is wrong with it)">Raise a problem</Trans>
              </Button>
            )}
            <Button size="lg" onClick={() => setConfirmingAccept(true)} data-testid="accept-delivery">
              <Trans comment="Button: accept the proof of delivery, which completes the load">Accept delivery</Trans>
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
