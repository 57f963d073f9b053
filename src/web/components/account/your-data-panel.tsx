import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Download, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useMe } from "../../lib/auth";
import { clearPersistedQueries } from "../../lib/persist";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
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
import { FieldError, TextField } from "../ui/input";

const fileNameOf = (disposition: string | null) =>
  /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "mytess-export.json";

/**
 * "Your data" in the settings: the account's data as a JSON file, and deleting the account (with the password, or a
 * code by SMS for an account that signs in by phone). The server says what must finish before an account can go.
 */
export function YourDataPanel() {
  const { t } = useLingui();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  // The export is a file download from the REST route (it names the file); fetched here so that a refusal (once a
  // minute) or a lost connection shows on the page instead of replacing it.
  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const res = await fetch("/api/user/export", { credentials: "same-origin" });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        setDownloadError(body?.message ?? t`Something went wrong. Please try again.`);
        return;
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = fileNameOf(res.headers.get("Content-Disposition"));
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setDownloadError(t`Could not reach MyTess. Check your connection and try again.`);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card data-testid="your-data">
      <CardHeader>
        <CardTitle>
          <Trans comment="Title of the settings card with the data download and account deletion">Your data</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Download a copy of your profile, loads, bids, messages and payments as a JSON file, or delete your account.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Button
            type="button"
            variant="outline"
            className="min-h-11 justify-self-start"
            onClick={download}
            disabled={downloading}
            data-testid="download-data"
          >
            <Download aria-hidden />
            {downloading ? (
              <Trans comment="Button while the file with the account's data is being prepared">
                Preparing your file...
              </Trans>
            ) : (
              <Trans comment="Button: download the account's data as a JSON file">Download my data</Trans>
            )}
          </Button>
          <FieldError>{downloadError}</FieldError>
        </div>
        <DeleteAccountDialog />
      </CardContent>
    </Card>
  );
}

type TErrors = { password?: string; code?: string; form?: string };

function DeleteAccountDialog() {
  const { t } = useLingui();
  const me = useMe();
  const phone = me.data?.phone ?? null;
  const [open, setOpen] = useState(false);
  const [byCode, setByCode] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<TErrors>({});
  const [blockers, setBlockers] = useState<string | null>(null);
  const onError = (err: unknown) => {
    const info = errorInfo(err);
    if (info.status === 409) setBlockers(info.message);
    else if (info.status === 400 && info.issues.length) {
      const next: TErrors = {};
      for (const i of info.issues)
        next[i.path === "code" ? "code" : i.path === "password" ? "password" : "form"] ??= i.message;
      setErrors(next);
    } else if (info.status === 429) setErrors({ form: info.message });
    else if (info.status === 0) setErrors({ form: t`Could not reach MyTess. Check your connection and try again.` });
    else setErrors({ form: t`Something went wrong. Please try again.` });
  };
  const sendCode = useMutation(
    trpc.accountData.deletionCode.mutationOptions({ onError, onSuccess: () => setCodeSent(true) }),
  );
  const remove = useMutation(
    trpc.accountData.delete.mutationOptions({
      onError,
      onSuccess: () => {
        clearPersistedQueries();
        // A full load: every cached screen of the deleted account goes with the page.
        window.location.assign("/");
      },
    }),
  );
  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setErrors({});
      setBlockers(null);
      setByCode(false);
      setCodeSent(false);
    }
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setErrors({});
    setBlockers(null);
    if (byCode) {
      const code = String(data.get("code") ?? "").trim();
      if (!/^\d{6}$/.test(code)) {
        setErrors({ code: t`Enter the 6 digits from the SMS` });
        return;
      }
      remove.mutate({ code });
    } else {
      const password = String(data.get("password") ?? "");
      if (!password) {
        setErrors({ password: t`Enter your password` });
        return;
      }
      remove.mutate({ password });
    }
  };

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          className="min-h-11 justify-self-start text-destructive"
          data-testid="delete-account"
        >
          <Trash2 aria-hidden />
          <Trans comment="Button in the settings that opens the account deletion dialog">Delete my account</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} role="alertdialog" data-testid="delete-account-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Title of the dialog that deletes the account">Delete your account?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              Your open loads are cancelled and your open bids withdrawn. You are signed out everywhere and cannot sign
              in again. Completed trips, ratings and payments stay in the other party's history under "Deleted user".
              Loads in progress must be completed first.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          {blockers ? (
            <p role="alert" className="rounded-md border border-destructive p-3 text-sm" data-testid="delete-blockers">
              {blockers}
            </p>
          ) : null}
          {byCode ? (
            codeSent ? (
              <TextField
                id="delete-code"
                label={<Trans comment="Label of the field for the 6-digit code sent by SMS">Code from the SMS</Trans>}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                error={errors.code}
              />
            ) : (
              <Button
                type="button"
                variant="outline"
                className="min-h-11"
                disabled={sendCode.isPending}
                onClick={() => sendCode.mutate()}
              >
                {sendCode.isPending ? (
                  <Trans comment="Button while the reset link is being asked for">Sending...</Trans>
                ) : (
                  <Trans comment="Button: send a code by SMS to the account's phone number">
                    Send a code to {phone}
                  </Trans>
                )}
              </Button>
            )
          ) : (
            <TextField
              id="delete-password"
              label={<Trans comment="Label of the password field">Password</Trans>}
              name="password"
              type="password"
              autoComplete="current-password"
              error={errors.password}
            />
          )}
          {phone ? (
            <Button
              type="button"
              variant="link"
              className="min-h-11 justify-self-start px-0"
              onClick={() => {
                setErrors({});
                setByCode(!byCode);
              }}
            >
              {byCode ? (
                <Trans comment="Link: confirm the account deletion with the password instead of an SMS code">
                  Use my password instead
                </Trans>
              ) : (
                <Trans comment="Link: confirm the account deletion with a code sent by SMS instead of the password">
                  Confirm with a code by SMS instead
                </Trans>
              )}
            </Button>
          ) : null}
          <FieldError>{errors.form}</FieldError>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" className="min-h-11">
                <Trans comment="Dialog button: close the dialog without doing anything (not “cancel a load”)">
                  Cancel
                </Trans>
              </Button>
            </DialogClose>
            <Button
              type="submit"
              variant="destructive"
              className="min-h-11"
              disabled={remove.isPending || (byCode && !codeSent)}
              data-testid="delete-account-confirm"
            >
              {remove.isPending ? (
                <Trans comment="Delete button while the deletion is in progress">Deleting...</Trans>
              ) : (
                <Trans comment="Button in the dialog that deletes the account for good">Delete my account</Trans>
              )}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
