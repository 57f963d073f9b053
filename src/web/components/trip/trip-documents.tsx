import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Camera, CloudUpload, FilePlus, FileText, FolderOpen, X } from "lucide-react";
import { type ChangeEvent, useEffect, useId, useState } from "react";
import type { TRateConfirmationAnswer } from "../../../shared/schemas/answers/rate-confirmations";
import type { TDocumentType } from "../../../shared/schemas/documents";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { DOCUMENT_ACCEPT, prepareUpload, type TUploadProblem } from "../../lib/upload-file";
import {
  dismissUpload,
  isProof,
  keepUpload,
  onUploadProgress,
  sendPendingUploads,
  uploadWaiting,
  usePendingUploads,
} from "../../lib/upload-queue";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "../ui/dialog";
import { FieldError } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { UploadBar } from "./upload-bar";

/** What a party may add from the trip panel; a proof of delivery comes with the delivery itself. */
const ADDABLE = ["bol", "photo", "other"] as const satisfies readonly TDocumentType[];

const useTypeWords = () => {
  const { t } = useLingui();
  return {
    bol: t({ message: "Bill of lading", comment: "A trip document's type: the bill of lading (BOL)" }),
    pod: t({ message: "Proof of delivery", comment: "A trip document's type: the proof of delivery (POD)" }),
    photo: t({ message: "Photo", comment: "A trip document's type: a photo of the load" }),
    other: t({ message: "Other", comment: "A trip document's type: any other file about the trip" }),
  } satisfies Record<TDocumentType, string>;
};

/** Files being added to this load from this phone: what waits and why, each file's upload, or the server's refusal. */
function PendingDocuments({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const pending = usePendingUploads().filter((p) => p.loadId === loadId && !isProof(p));
  const [progress, setProgress] = useState<Record<string, number>>({});
  useEffect(() => onUploadProgress((p) => setProgress((all) => ({ ...all, [p.fileKey]: p.fraction }))), []);
  if (!pending.length) return null;
  const refused = pending.filter((p) => p.refused);
  const waiting = pending.filter((p) => !p.refused).flatMap((p) => p.files.filter((f) => !f.documentId));
  const queued = waiting.length;
  const count = plural(queued, { one: "# file queued", other: "# files queued" });
  return (
    <div className="grid gap-2" data-testid="pending-documents">
      {refused.map((p) => {
        const fileName = p.files[0]?.name;
        const reason = p.refused;
        return (
          <div key={p.id} className="flex items-start justify-between gap-2 text-sm text-destructive" role="alert">
            <span>
              <Trans comment="Trip documents: the server refused a file sent from the phone; the file's name, then its reason">
                {fileName} was not accepted: {reason}
              </Trans>
            </span>
            <Button
              size="icon"
              variant="ghost"
              className="size-11 shrink-0"
              aria-label={t({ message: "Dismiss", comment: "Screen-reader label of the X button that hides a notice" })}
              onClick={() => void dismissUpload(p.id)}
            >
              <X />
            </Button>
          </div>
        );
      })}
      {waiting.length > 0 && (
        <div className="grid gap-1 text-sm" role="status">
          <span className="flex items-center gap-2 text-amber-900">
            <CloudUpload className="size-4" aria-hidden />
            {online ? (
              <Trans comment="Trip documents: files are being sent; then how many still wait, e.g. '2 files queued'">
                Sending · {count}
              </Trans>
            ) : (
              <Trans comment="Trip documents, offline: files wait on the phone; then how many, e.g. '2 files queued'">
                Waiting for network · {count}
              </Trans>
            )}
          </span>
          {online &&
            waiting.map(({ key, name: fileName }) => (
              <UploadBar
                key={key}
                fraction={progress[key] ?? 0}
                label={t({
                  message: `Upload of ${fileName}`,
                  comment: "Screen-reader name of a file's upload progress bar; the file's name follows",
                })}
              />
            ))}
        </div>
      )}
    </div>
  );
}

/**
 * Adding a file to the trip: its type first, then the camera or a file. The file is made ready on the phone (a photo
 * made small) and kept there before it is sent, so a dead zone loses nothing; the list below shows its progress.
 */
function AddDocument({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const words = useTypeWords();
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<(typeof ADDABLE)[number]>("bol");
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const problem = (p: TUploadProblem, name: string) =>
    ({
      type: t`${name} cannot be added: choose a photo (JPEG, PNG or WebP) or a PDF.`,
      size: t`${name} is too big: a file may be at most 10 MB.`,
      photoNotImage: t`${name} is a PDF: a photo must be an image. Choose "Bill of lading" or "Other" for a PDF.`,
      unreadable: t`${name} could not be read as a photo. Take it again or choose another file.`,
    })[p];

  const add = async (list: File[]) => {
    if (!list.length) return;
    setError(null);
    setPreparing(true);
    const kept: string[] = [];
    try {
      for (const file of list) {
        const prepared = await prepareUpload(file, type);
        if (!prepared.ok) {
          setError(problem(prepared.problem, file.name));
          continue;
        }
        // One upload each: a file the server refuses does not hold back the others.
        kept.push((await keepUpload(loadId, [{ blob: prepared.blob, name: prepared.name, type }])).id);
      }
    } catch {
      setError(t`The file could not be kept on this phone. Please try again.`);
    } finally {
      setPreparing(false);
    }
    if (!kept.length) return;
    setOpen(false);
    const result = await sendPendingUploads().catch(() => null);
    const sent = kept.filter((id) => !uploadWaiting(id) && !result?.refused.some((r) => r.id === id)).length;
    if (sent) {
      toast({
        title: plural(sent, { one: "Document added", other: "# documents added" }),
        variant: "success",
      });
      await queryClient.invalidateQueries({ queryKey: trpc.documents.list.queryKey({ loadId }) });
    } else if (kept.some((id) => uploadWaiting(id)))
      toast({
        title: t`Saved on this phone`,
        description: t`The file will be sent when the network returns.`,
        variant: "warning",
      });
  };

  const fileProps = (capture: boolean) => ({
    accept: capture ? "image/*" : DOCUMENT_ACCEPT,
    capture: capture ? ("environment" as const) : undefined,
    multiple: !capture,
    disabled: preparing,
    className: "sr-only",
    "aria-describedby": error ? errorId : undefined,
    "data-testid": capture ? "document-camera-input" : "document-file-input",
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const files = [...(e.currentTarget.files ?? [])];
      e.currentTarget.value = "";
      void add(files);
    },
  });
  const pick =
    "inline-flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border bg-white px-4 text-base font-medium focus-within:ring-2 focus-within:ring-brand/50 hover:bg-muted";

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" className="min-h-11 justify-self-start md:min-h-9" data-testid="add-document">
          <FilePlus aria-hidden />
          <Trans comment="Button on the load page: add a file (bill of lading, photo) to the trip's documents">
            Add document
          </Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="add-document-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Title of the dialog that adds a file to the trip's documents">Add a document</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>A photo (JPEG, PNG or WebP) or a PDF, at most 10 MB. Both sides of the trip see it.</Trans>
          </DialogDescription>
        </DialogHeader>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">
            <Trans comment="Label above the choice of a trip document's type">What is it?</Trans>
          </legend>
          <div className="grid grid-cols-3 gap-2" role="radiogroup">
            {ADDABLE.map((k) => (
              <label
                key={k}
                className={cn(
                  "flex min-h-11 cursor-pointer items-center justify-center rounded-md border px-2 text-center text-sm font-medium focus-within:ring-2 focus-within:ring-brand/50",
                  type === k ? "border-brand bg-brand/10" : "bg-white hover:bg-muted",
                )}
              >
                <input
                  type="radio"
                  name="document-type"
                  value={k}
                  checked={type === k}
                  onChange={() => {
                    setType(k);
                    setError(null);
                  }}
                  className="sr-only"
                />
                {words[k]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-2 sm:grid-cols-2">
          <label className={pick} data-testid="document-camera">
            <Camera className="size-4" aria-hidden />
            <Trans comment="Button: open the camera for a photo of a trip document">Take a photo</Trans>
            <input type="file" {...fileProps(true)} />
          </label>
          <label className={pick} data-testid="document-file">
            <FolderOpen className="size-4" aria-hidden />
            <Trans comment="Button: choose a file (photo or PDF) from the phone or computer for the trip's documents">
              Choose a file
            </Trans>
            <input type="file" {...fileProps(false)} />
          </label>
        </div>
        {preparing && (
          <p className="text-sm text-muted-foreground" role="status">
            <Trans comment="Shown while a chosen file is made ready (a photo made smaller) before it is sent">
              Preparing the file...
            </Trans>
          </p>
        )}
        <FieldError id={errorId}>{error}</FieldError>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The trip's documents (bill of lading, photos, proof of delivery, other files) for both parties: each with its type,
 * name, who added it and when, opening in a new tab; and the way to add one.
 */
export function TripDocuments({ rc }: { rc: TRateConfirmationAnswer }) {
  const { formatDate } = usePreferences();
  const loadId = rc.loadId;
  const q = useQuery(trpc.documents.list.queryOptions({ loadId }));
  const words = useTypeWords();
  const me = rc[rc.you].id;
  const who = (id: number | null) => {
    if (id === me) return <Trans comment="Trip documents: who added the file: the reader">by you</Trans>;
    if (id !== rc.shipper.id && id !== rc.driver.id) return null;
    const name = id === rc.shipper.id ? rc.shipper.name : rc.driver.name;
    return <Trans comment="Trip documents: who added the file: the other party's name">by {name}</Trans>;
  };
  return (
    <div className="grid gap-2" data-testid="trip-documents">
      <h3 className="font-semibold">
        <Trans comment="Heading on the load page: the trip's files (bill of lading, photos, proof of delivery)">
          Documents
        </Trans>
      </h3>
      {q.isPending ? (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans comment="Shown while the trip's documents are fetched">Loading the documents...</Trans>
        </p>
      ) : q.isError ? (
        <LoadError
          title={<Trans>The documents could not be loaded. Check your connection and try again.</Trans>}
          error={q.error}
          onRetry={q.refetch}
        />
      ) : q.data.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="documents-empty">
          <Trans>No documents yet. The bill of lading and delivery photos show here once uploaded.</Trans>
        </p>
      ) : (
        <ul className="grid gap-2">
          {q.data.map((d) => (
            <li key={d.id} className="flex items-center gap-3" data-testid="trip-document" data-type={d.type}>
              <FileText className="size-5 shrink-0 text-muted-foreground" aria-hidden />
              <div className="grid min-w-0 flex-1 text-sm">
                <span className="font-medium">{words[d.type]}</span>
                <span className="truncate" data-testid="trip-document-name">
                  {d.fileName}
                </span>
                <span className="text-muted-foreground">
                  {who(d.uploadedBy)} · {formatDate(d.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </span>
              </div>
              <Button asChild variant="outline" className="min-h-11 shrink-0 md:min-h-9">
                <a href={d.url} target="_blank" rel="noreferrer" data-testid="trip-document-open">
                  <Trans comment="Link on a trip document: open the file in a new tab">Open</Trans>
                  <span className="sr-only">{d.fileName}</span>
                </a>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <PendingDocuments loadId={loadId} />
      <AddDocument loadId={loadId} />
    </div>
  );
}
