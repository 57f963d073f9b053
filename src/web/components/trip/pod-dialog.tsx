import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Camera, CloudUpload, PackageCheck, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";
import { prepareUpload } from "../../lib/upload-file";
import {
  dismissUpload,
  isProof,
  keepUpload,
  onUploadProgress,
  sendPendingUploads,
  uploadWaiting,
  usePendingUploads,
} from "../../lib/upload-queue";
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
import { FieldError, Input, Label } from "../ui/input";
import { SignaturePad } from "./signature-pad";
import { UploadBar } from "./upload-bar";

type TPhoto = { key: string; blob: Blob; url: string };

/**
 * The driver records the delivery with its proof: photos from the camera (made small on the phone first) or the
 * receiver's signature drawn on the screen, and the receiver's name, confirmed before sending. The proof is kept on
 * the phone before anything is sent, so a dead zone loses nothing: it goes when the network returns.
 */
export function PodDialog({
  loadId,
  title,
  open: openAsked,
  onOpenChange,
}: {
  loadId: number;
  title: string;
  /** Opened from outside too (the arrival prompt's "Yes, delivered"): controlled when given. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [openState, setOpenState] = useState(false);
  const open = openAsked ?? openState;
  const setOpen = (o: boolean) => {
    setOpenState(o);
    onOpenChange?.(o);
  };
  const [photos, setPhotos] = useState<TPhoto[]>([]);
  const [preparing, setPreparing] = useState(0);
  const [signed, setSigned] = useState(false);
  const [receiver, setReceiver] = useState("");
  const [errors, setErrors] = useState<{ receiver?: string; proof?: string; send?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState<string | null>(null);
  // The signature as drawn when the driver went on to the check: the pad is not shown there.
  const [drawn, setDrawn] = useState<Blob | null>(null);
  const signature = useRef<(() => Promise<Blob | null>) | null>(null);
  const receiverInput = useRef<HTMLInputElement>(null);

  const reset = () => {
    for (const p of photos) URL.revokeObjectURL(p.url);
    setPhotos([]);
    setSigned(false);
    setReceiver("");
    setErrors({});
    setConfirming(false);
    setSending(null);
    setDrawn(null);
  };

  const addPhotos = async (files: FileList | null) => {
    const list = [...(files ?? [])];
    setPreparing((n) => n + list.length);
    for (const file of list) {
      const prepared = await prepareUpload(file, "photo").finally(() => setPreparing((n) => n - 1));
      if (prepared.ok) {
        const blob = prepared.blob;
        setPhotos((ps) => [...ps, { key: crypto.randomUUID(), blob, url: URL.createObjectURL(blob) }]);
      } else {
        toast({
          title: t`This photo could not be read`,
          description: t`Take the photo again, or use the receiver's signature.`,
          variant: "destructive",
        });
      }
    }
    setErrors((e) => ({ ...e, proof: undefined }));
  };

  const check = () => {
    const next: typeof errors = {};
    if (!receiver.trim()) next.receiver = t`Type the name of the person who received the load.`;
    if (!photos.length && !signed) next.proof = t`Take at least one photo, or have the receiver sign.`;
    setErrors(next);
    if (next.receiver) receiverInput.current?.focus();
    return !next.receiver && !next.proof;
  };

  const send = async () => {
    const files: { blob: Blob; name: string; type: "photo" | "pod" }[] = photos.map((p, i) => ({
      blob: p.blob,
      name: `delivery-${i + 1}.jpg`,
      type: "photo",
    }));
    if (drawn) files.push({ blob: drawn, name: "signature.png", type: "pod" as const });
    if (!files.length) {
      setConfirming(false);
      setErrors({ proof: t`Take at least one photo, or have the receiver sign.` });
      return;
    }
    let podId: string;
    try {
      podId = (await keepUpload(loadId, files, { receiverName: receiver.trim() })).id;
    } catch {
      setErrors({ send: t`The proof could not be kept on this phone. Please try again.` });
      return;
    }
    setSending(podId);
    const result = await sendPendingUploads().catch(() => null);
    const refused = result?.refused.find((r) => r.id === podId);
    if (refused) {
      await dismissUpload(podId);
      setSending(null);
      setConfirming(false);
      setErrors({ send: refused.refused });
      return;
    }
    const delivered = result !== null && !uploadWaiting(podId);
    setOpen(false);
    reset();
    if (delivered) {
      toast({
        title: t({ message: "Delivery recorded", comment: "Notice title after the driver sent the proof of delivery" }),
        description: t`The shipper has 48 hours to accept it or raise a problem.`,
        variant: "success",
      });
      await queryClient.invalidateQueries();
    } else {
      toast({
        title: t`Saved on this phone`,
        description: t`The proof of delivery will be sent when the network returns.`,
        variant: "warning",
      });
    }
  };

  const receiverName = receiver.trim();
  const photoCount = plural(photos.length, { one: "# photo", other: "# photos" });
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (sending) return;
        setOpen(o);
        if (!o) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button size="lg" data-testid="record-delivery">
          <PackageCheck />
          <Trans comment="Button on the driver's trip: record the delivery with photos or the receiver's signature">
            Record delivery
          </Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="pod-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Title of the dialog where the driver records the proof of delivery">
              Proof of delivery
            </Trans>
          </DialogTitle>
          <DialogDescription>{title}</DialogDescription>
        </DialogHeader>

        {/* Hidden, not unmounted, during the check: going back keeps the signature drawn. */}
        <div className={confirming ? "hidden" : "grid gap-4"}>
          <div className="grid gap-2">
            <Label>
              <Trans comment="Heading of the proof-of-delivery photos">Photos of the delivered goods or papers</Trans>
            </Label>
            {photos.length > 0 && (
              <ul className="grid grid-cols-3 gap-2" data-testid="pod-photos">
                {photos.map((p, i) => (
                  <li key={p.key} className="relative">
                    <img
                      src={p.url}
                      alt={t`Proof of delivery ${i + 1}`}
                      className="aspect-square w-full rounded-md border object-cover"
                    />
                    <button
                      type="button"
                      className="absolute top-0 right-0 flex size-11 items-center justify-center rounded-full"
                      aria-label={t({
                        message: `Remove photo ${i + 1}`,
                        comment: "Screen-reader label of the X on a proof-of-delivery photo: take this photo out",
                      })}
                      onClick={() => {
                        URL.revokeObjectURL(p.url);
                        setPhotos((ps) => ps.filter((x) => x.key !== p.key));
                      }}
                    >
                      <span className="rounded-full bg-black/60 p-1 text-white">
                        <X className="size-4" />
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {preparing > 0 && (
              <p className="text-sm text-muted-foreground" role="status">
                <Trans comment="Shown while a photo is being made smaller on the phone before it is sent">
                  Preparing photo...
                </Trans>
              </p>
            )}
            <label
              className="inline-flex h-11 cursor-pointer items-center justify-center gap-2 rounded-md border bg-white px-6 text-base font-medium focus-within:ring-2 focus-within:ring-brand/50 hover:bg-muted"
              data-testid="take-photo"
            >
              <Camera className="size-4" />
              {photos.length ? (
                <Trans comment="Button: take one more proof-of-delivery photo">Take another photo</Trans>
              ) : (
                <Trans comment="Button: open the camera for a proof-of-delivery photo">Take a photo</Trans>
              )}
              <input
                type="file"
                accept="image/*"
                capture="environment"
                multiple
                className="sr-only"
                data-testid="pod-photo-input"
                onChange={(e) => {
                  void addPhotos(e.currentTarget.files);
                  e.currentTarget.value = "";
                }}
              />
            </label>
          </div>

          <div className="grid gap-2">
            <Label>
              <Trans comment="Heading of the signature pad in the proof of delivery">Or the receiver's signature</Trans>
            </Label>
            <SignaturePad
              exportRef={signature}
              onChange={(s) => {
                setSigned(s);
                if (s) setErrors((e) => ({ ...e, proof: undefined }));
              }}
            />
            <FieldError id="pod-proof-error">{errors.proof}</FieldError>
          </div>

          <div className="grid gap-2">
            <Label htmlFor="pod-receiver">
              <Trans comment="Field label: the name of the person who received the load at delivery">
                Receiver's name
              </Trans>
            </Label>
            <Input
              id="pod-receiver"
              ref={receiverInput}
              className="h-11 text-base"
              autoComplete="off"
              value={receiver}
              aria-invalid={Boolean(errors.receiver)}
              aria-describedby={errors.receiver ? "pod-receiver-error" : undefined}
              onChange={(e) => {
                setReceiver(e.target.value);
                setErrors((x) => ({ ...x, receiver: undefined }));
              }}
            />
            <FieldError id="pod-receiver-error">{errors.receiver}</FieldError>
          </div>
          <FieldError>{errors.send}</FieldError>
          <DialogFooter>
            <Button
              size="lg"
              disabled={preparing > 0}
              onClick={async () => {
                if (!check()) return;
                setDrawn(signed ? ((await signature.current?.()) ?? null) : null);
                setConfirming(true);
              }}
              data-testid="pod-continue"
            >
              <Trans comment="Button in the proof of delivery: go to the last check before sending">Continue</Trans>
            </Button>
          </DialogFooter>
        </div>
        {confirming && (
          <div className="grid gap-4" data-testid="pod-confirm">
            <p className="text-sm">
              {photos.length > 0 && drawn ? (
                <Trans>
                  Record the delivery to {receiverName} with {photoCount} and a signature? The shipper is then asked to
                  accept it.
                </Trans>
              ) : photos.length > 0 ? (
                <Trans>
                  Record the delivery to {receiverName} with {photoCount}? The shipper is then asked to accept it.
                </Trans>
              ) : (
                <Trans>
                  Record the delivery to {receiverName} with their signature? The shipper is then asked to accept it.
                </Trans>
              )}
            </p>
            {sending && <PendingPod loadId={loadId} />}
            <DialogFooter>
              <Button size="lg" variant="outline" disabled={Boolean(sending)} onClick={() => setConfirming(false)}>
                <Trans comment="Button: go back to change the proof of delivery">Back</Trans>
              </Button>
              <Button size="lg" disabled={Boolean(sending)} onClick={() => void send()} data-testid="pod-send">
                <Trans comment="Button: send the proof of delivery now">Send proof of delivery</Trans>
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * A proof of delivery waiting on this phone, on the trip's card: what waits and why ("Waiting for network · 2 photos
 * queued"), each file's upload while it goes, or the server's reason when it refused it.
 */
export function PendingPod({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const pending = usePendingUploads().filter((p) => p.loadId === loadId && isProof(p));
  const [progress, setProgress] = useState<Record<string, number>>({});
  useEffect(() => onUploadProgress((p) => setProgress((all) => ({ ...all, [p.fileKey]: p.fraction }))), []);
  if (!pending.length) return null;
  return (
    <div className="grid w-full gap-2" data-testid="pending-pod">
      {pending.map((pod) => {
        const left = pod.files.filter((f) => !f.documentId);
        const photos = left.filter((f) => f.type === "photo").length;
        const waiting = photos
          ? plural(photos, { one: "# photo queued", other: "# photos queued" })
          : left.length
            ? t({ message: "signature queued", comment: "Trip card: the receiver's signature waits to be sent" })
            : t({ message: "delivery queued", comment: "Trip card: the files are sent, the delivery itself waits" });
        if (pod.refused)
          return (
            <div key={pod.id} className="flex items-start justify-between gap-2 text-sm text-destructive" role="alert">
              <span>
                <Trans comment="Trip card: the server refused the proof of delivery sent from the phone; its reason follows">
                  The proof of delivery was not accepted: {pod.refused}
                </Trans>
              </span>
              <Button
                size="icon"
                variant="ghost"
                className="size-11"
                aria-label={t({
                  message: "Dismiss",
                  comment: "Screen-reader label of the X button that hides a notice",
                })}
                onClick={() => void dismissUpload(pod.id)}
              >
                <X />
              </Button>
            </div>
          );
        return (
          <div key={pod.id} className="grid gap-1 text-sm" role="status">
            <span className="flex items-center gap-2 text-amber-900">
              <CloudUpload className="size-4" />
              {online ? (
                <Trans comment="Trip card: the proof of delivery is being sent; then how many photos still wait">
                  Sending the proof of delivery · {waiting}
                </Trans>
              ) : (
                <Trans comment="Trip card, offline: the proof of delivery waits on the phone; then how many photos wait, e.g. '2 photos queued'">
                  Waiting for network · {waiting}
                </Trans>
              )}
            </span>
            {online &&
              left.map((f, i) => (
                <UploadBar
                  key={f.key}
                  fraction={progress[f.key] ?? 0}
                  label={t({
                    message: `Upload ${i + 1} of ${left.length}`,
                    comment:
                      "Screen-reader name of a file's upload progress bar: the first number is the file, the second how many",
                  })}
                />
              ))}
          </div>
        );
      })}
    </div>
  );
}
