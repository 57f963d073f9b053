import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TVerificationFile } from "../../../shared/schemas/answers/verification";
import type { TVerificationFileKind } from "../../../shared/schemas/verification";
import { useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { FieldError, Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { VerifiedBadge } from "./verified-badge";

type TIssue = { path: string | string[]; message: string };
class UploadError extends Error {
  constructor(
    message: string,
    readonly issues: TIssue[] = [],
  ) {
    super(message);
  }
}

/** Sends one file to the verification storage (multipart, as load documents are sent). */
const uploadFile = async (kind: TVerificationFileKind, file: File): Promise<TVerificationFile> => {
  const form = new FormData();
  form.set("kind", kind);
  form.set("file", file);
  const res = await fetch("/api/verification/files", { method: "POST", body: form, credentials: "same-origin" });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new UploadError(body?.message ?? res.statusText, body?.issues ?? []);
  return body as TVerificationFile;
};

const FILE_FIELDS: TVerificationFileKind[] = ["trade_licence", "insurance", "drivers_licence"];

function NotApproved({ reason }: { reason: string }) {
  return <Trans>Not approved: {reason}. Correct it and submit again.</Trans>;
}

/** The owner's verification: where it stands, the badge, and the form to submit (again). */
export function VerificationPanel() {
  const { t } = useLingui();
  const online = useOnline();
  const queryClient = useQueryClient();
  const mine = useQuery(trpc.verification.mine.queryOptions());
  const [country, setCountry] = useState<"ET" | "US">("ET");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = useMutation(trpc.verification.submit.mutationOptions());

  const label: Record<TVerificationFileKind, string> = {
    trade_licence: t({ message: "Trade licence (copy)", comment: "File field: a scan or photo of the trade licence" }),
    tin: t({ message: "TIN certificate", comment: "File field: the taxpayer registration certificate" }),
    mc_dot: t({ message: "MC/DOT authority", comment: "File field: the US operating authority letter" }),
    insurance: t({ message: "Insurance certificate", comment: "File field: the insurance certificate" }),
    drivers_licence: t({ message: "Driver's licence", comment: "File field: a photo of the driver's licence" }),
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (name: string) => String(f.get(name) ?? "").trim() || undefined;
    setErrors({});
    setBusy(true);
    try {
      const fileIds: number[] = [];
      for (const kind of FILE_FIELDS) {
        const file = f.get(`file-${kind}`);
        if (!(file instanceof File) || file.size === 0) continue;
        try {
          fileIds.push((await uploadFile(kind, file)).id);
        } catch (err) {
          setErrors({ [`file-${kind}`]: err instanceof Error ? err.message : String(err) });
          return;
        }
      }
      await submit.mutateAsync({
        country,
        tradeLicenceNumber: country === "ET" ? text("tradeLicenceNumber") : undefined,
        tin: country === "ET" ? text("tin") : undefined,
        mcNumber: country === "US" ? text("mcNumber") : undefined,
        dotNumber: country === "US" ? text("dotNumber") : undefined,
        insuranceExpiresOn: text("insuranceExpiresOn"),
        fileIds,
      });
      toast({
        title: t({ message: "Sent for review", comment: "Notice title: the verification was submitted" }),
        variant: "success",
      });
      await queryClient.invalidateQueries({ queryKey: trpc.verification.mine.queryKey() });
    } catch (err) {
      const data = (err as { data?: { issues?: TIssue[] } }).data;
      const issues = data?.issues ?? [];
      if (issues.length)
        setErrors(
          Object.fromEntries(issues.map((i) => [Array.isArray(i.path) ? String(i.path[0]) : i.path, i.message])),
        );
      else setErrors({ form: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  if (mine.isPending)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Getting your verification…</Trans>
      </p>
    );
  if (mine.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        <Trans>Your verification could not be shown. Check your connection and try again.</Trans>
      </p>
    );
  const current = mine.data.current;
  const pending = current?.status === "pending";
  const fileError = (kind: TVerificationFileKind) =>
    errors[`file-${kind}`] ?? (kind === "trade_licence" ? errors.fileIds : undefined);

  return (
    <div className="grid gap-4">
      <Card data-testid="verification-status">
        <CardHeader>
          <CardTitle>
            <Trans comment="Card title: where the user's verification stands">Your verification</Trans>
          </CardTitle>
          <CardDescription>
            {!current ? (
              <Trans>You have not asked to be verified yet.</Trans>
            ) : current.status === "pending" ? (
              <Trans>Your documents are waiting for an operator's review.</Trans>
            ) : current.status === "rejected" ? (
              <NotApproved reason={current.reason ?? ""} />
            ) : (
              <Trans>Approved. Your loads and bids show the Verified badge.</Trans>
            )}
          </CardDescription>
        </CardHeader>
        {mine.data.badge && (
          <CardContent>
            <VerifiedBadge badge={mine.data.badge} />
          </CardContent>
        )}
      </Card>
      {!pending && (
        <Card>
          <CardHeader>
            <CardTitle>
              <Trans comment="Card title: the form to send documents for verification">Get verified</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>
                Only you and MyTess operators see these documents. Files: JPEG, PNG, WebP or PDF, at most 10 MB each.
              </Trans>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form className="grid gap-4" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="verification-form">
              <div className="grid gap-2">
                <Label htmlFor="verify-country">
                  <Trans comment="Field label: the country the business is registered in">Registered in</Trans>
                </Label>
                <NativeSelect
                  id="verify-country"
                  className="min-h-11"
                  value={country}
                  onChange={(e) => setCountry(e.target.value as "ET" | "US")}
                >
                  <option value="ET">{t({ message: "Ethiopia", comment: "Country name" })}</option>
                  <option value="US">{t({ message: "United States", comment: "Country name" })}</option>
                </NativeSelect>
              </div>
              {country === "ET" ? (
                <>
                  <TextField
                    id="tradeLicenceNumber"
                    name="tradeLicenceNumber"
                    className="[&_input]:min-h-11"
                    label={<Trans comment="Field label: the trade licence's number">Trade licence number</Trans>}
                    error={errors.tradeLicenceNumber}
                  />
                  <TextField
                    id="tin"
                    name="tin"
                    inputMode="numeric"
                    className="[&_input]:min-h-11"
                    label={
                      <Trans comment="Field label: taxpayer identification number, 10 digits">TIN (10 digits)</Trans>
                    }
                    error={errors.tin}
                  />
                </>
              ) : (
                <>
                  <TextField
                    id="mcNumber"
                    name="mcNumber"
                    inputMode="numeric"
                    className="[&_input]:min-h-11"
                    label={<Trans comment="Field label: the US motor carrier number">MC number</Trans>}
                    error={errors.mcNumber}
                  />
                  <TextField
                    id="dotNumber"
                    name="dotNumber"
                    inputMode="numeric"
                    className="[&_input]:min-h-11"
                    label={<Trans comment="Field label: the US DOT number">DOT number</Trans>}
                    error={errors.dotNumber}
                  />
                </>
              )}
              {FILE_FIELDS.filter((k) => k !== "trade_licence" || country === "ET").map((kind) => (
                <div key={kind} className="grid gap-2">
                  <Label htmlFor={`file-${kind}`}>{label[kind]}</Label>
                  <input
                    id={`file-${kind}`}
                    name={`file-${kind}`}
                    type="file"
                    accept="image/jpeg,image/png,image/webp,application/pdf"
                    className="min-h-11 text-sm"
                    aria-invalid={!!fileError(kind)}
                    aria-describedby={fileError(kind) ? `file-${kind}-error` : undefined}
                  />
                  <FieldError id={`file-${kind}-error`}>{fileError(kind)}</FieldError>
                </div>
              ))}
              <TextField
                id="insuranceExpiresOn"
                name="insuranceExpiresOn"
                type="date"
                className="[&_input]:min-h-11"
                label={<Trans comment="Field label: the insurance certificate's last day">Insurance valid until</Trans>}
                error={errors.insuranceExpiresOn}
              />
              <FieldError id="verification-form-error">{errors.form}</FieldError>
              {!online && (
                <p className="text-sm text-muted-foreground">
                  <Trans>You are offline: connect to send your documents.</Trans>
                </p>
              )}
              <Button type="submit" className="min-h-11 justify-self-start" disabled={busy || !online}>
                {busy ? (
                  <Trans comment="Button while the documents upload">Sending…</Trans>
                ) : (
                  <Trans comment="Button: send the verification documents for review">Submit for review</Trans>
                )}
              </Button>
            </form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
