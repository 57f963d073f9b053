import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TVerificationSubmission } from "../../../shared/schemas/answers/verification";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { TextField } from "../ui/input";

/** One pending submission: who, the numbers given, the files, and the operator's two answers. */
function Submission({ s, onDone }: { s: TVerificationSubmission; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [rejecting, setRejecting] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const fail = (e: { message: string }) => toast({ title: t`Error`, description: e.message, variant: "destructive" });
  const approve = useMutation(
    trpc.verification.approve.mutationOptions({
      onSuccess: () => {
        toast({
          title: t({ message: "Approved", comment: "Notice title: a verification was approved" }),
          variant: "success",
        });
        onDone();
      },
      onError: fail,
    }),
  );
  const reject = useMutation(
    trpc.verification.reject.mutationOptions({
      onSuccess: () => {
        toast({
          title: t({ message: "Rejected", comment: "Notice title: a verification was rejected" }),
          variant: "success",
        });
        onDone();
      },
      onError: (e) => setError(e.message),
    }),
  );
  const onReject = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const reason = String(new FormData(e.currentTarget).get("reason") ?? "").trim();
    if (!reason) return setError(t`Say what is wrong: the owner reads it.`);
    reject.mutate({ id: s.id, reason });
  };
  const rows: [string, string | null][] = [
    [t({ message: "Trade licence number", comment: "Field label: the trade licence's number" }), s.tradeLicenceNumber],
    [t({ message: "TIN", comment: "Verified badge: the taxpayer identification number was checked" }), s.tin],
    [t({ message: "MC number", comment: "Field label: the US motor carrier number" }), s.mcNumber],
    [t({ message: "DOT number", comment: "Field label: the US DOT number" }), s.dotNumber],
    [
      t({ message: "Insurance valid until", comment: "Field label: the insurance certificate's last day" }),
      s.insuranceExpiresOn,
    ],
  ];
  return (
    <li className="grid gap-3 rounded-md border p-3" data-testid="verification-submission">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">{s.subject.name}</span>
        <span className="text-xs text-muted-foreground">
          #{s.id} · {s.country} · {i18n.date(s.createdAt, { dateStyle: "medium", timeStyle: "short" })}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted-foreground">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      {s.files.length > 0 ? (
        <ul className="grid gap-1 text-sm">
          {s.files.map((f) => (
            <li key={f.id}>
              <a className="inline-flex min-h-11 items-center underline" href={f.url} target="_blank" rel="noreferrer">
                {f.kind.replace("_", " ")}: {f.fileName}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          <Trans>No files: check the numbers in the public registers.</Trans>
        </p>
      )}
      {rejecting ? (
        <form className="grid gap-2" onSubmit={onReject} noValidate>
          <TextField
            id={`reason-${s.id}`}
            name="reason"
            maxLength={500}
            className="[&_input]:min-h-11"
            label={<Trans comment="Field label: why the operator rejects the verification">Reason for the owner</Trans>}
            error={error}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="destructive" className="min-h-11" disabled={reject.isPending}>
              <Trans comment="Button: reject this verification with the reason given">Reject</Trans>
            </Button>
            <Button type="button" variant="ghost" className="min-h-11" onClick={() => setRejecting(false)}>
              <Trans comment="Button: keep the verification undecided">Cancel</Trans>
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            className="min-h-11"
            disabled={approve.isPending}
            onClick={() => approve.mutate({ id: s.id })}
            data-testid="approve-verification"
          >
            <Trans comment="Button: approve this verification (the owner gets the Verified badge)">Approve</Trans>
          </Button>
          <Button type="button" variant="outline" className="min-h-11" onClick={() => setRejecting(true)}>
            <Trans comment="Button: start rejecting this verification (asks for a reason)">Reject…</Trans>
          </Button>
        </div>
      )}
    </li>
  );
}

/** The operators' review queue: pending submissions, oldest first. */
export function ReviewPanel() {
  const queryClient = useQueryClient();
  const list = useQuery(trpc.verification.list.queryOptions({ status: "pending" }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.verification.list.queryKey() });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans comment="Card title: verification submissions waiting for an operator">Waiting for review</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Open each file, compare it with the numbers given, then approve or reject with a reason.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <p className="text-sm text-muted-foreground">
            <Trans>Getting the submissions…</Trans>
          </p>
        ) : list.isError ? (
          <p role="alert" className="text-sm text-destructive">
            <Trans>The submissions could not be shown. Check your connection and try again.</Trans>
          </p>
        ) : list.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-submissions">
            <Trans>Nothing is waiting for review.</Trans>
          </p>
        ) : (
          <ul className="grid gap-3">
            {list.data.map((s) => (
              <Submission key={s.id} s={s} onDone={refresh} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
