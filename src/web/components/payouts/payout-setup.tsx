import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TPayoutBank, TPayoutSetup } from "../../../shared/schemas/payouts";
import { useOnline } from "../../lib/online";
import { errorInfo, trpc } from "../../lib/trpc";
import { SandboxBadge } from "../boards/status-badges";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { FieldError, Label, TextField } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { NativeSelect } from "../ui/textarea";

type TErrors = { bankCode?: string; accountNumber?: string; accountName?: string; form?: string };

/**
 * The driver's payout setup: Stripe Connect for dollars and euros (Stripe's hosted onboarding), Chapa for birr (a bank
 * account or a telebirr / CBE Birr / M-Pesa wallet from Chapa's own list, the holder's name confirmed before saving).
 */
export function PayoutSetup() {
  const setup = useQuery(trpc.payouts.setup.queryOptions());
  const online = useOnline();
  return (
    <Card data-testid="payout-setup">
      <CardHeader>
        <CardTitle>
          <Trans comment="Settings card title: where the driver receives money for delivered loads">Payouts</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Where MyTess sends your share when a delivery is accepted.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!online ? (
          <p role="status" className="text-sm text-muted-foreground">
            <Trans>You are offline. Payout settings need a connection.</Trans>
          </p>
        ) : null}
        {setup.isPending ? (
          <p role="status" className="text-sm text-muted-foreground">
            <Trans>Loading payout settings…</Trans>
          </p>
        ) : setup.isError ? (
          <LoadError
            title={<Trans>Payout settings could not be loaded.</Trans>}
            error={setup.error}
            onRetry={setup.refetch}
          />
        ) : (
          <>
            <StripePayouts setup={setup.data.stripe} />
            <ChapaPayouts setup={setup.data.chapa} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

type TSetup = TPayoutSetup;

function StripePayouts({ setup }: { setup: TSetup["stripe"] }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const start = useMutation(
    trpc.payouts.startStripe.mutationOptions({
      onSuccess: (r) => window.location.assign(r.url),
      onError: (err) => {
        const info = errorInfo(err);
        setError(info.status === 0 ? t`Could not reach MyTess. Check your connection and try again.` : info.message);
      },
    }),
  );
  const account = setup.account;
  return (
    <section className="grid gap-2" data-testid="payout-stripe" aria-labelledby="payout-stripe-title">
      <h3 id="payout-stripe-title" className="flex flex-wrap items-center gap-2 font-medium">
        <Trans comment="Heading: payouts in US dollars and euros through Stripe">Dollars and euros (Stripe)</Trans>
        {setup.state === "sandbox" ? <SandboxBadge /> : null}
      </h3>
      {setup.state === "not_configured" ? (
        <p className="text-sm text-muted-foreground">
          <Trans>Stripe payouts are not available on this server.</Trans>
        </p>
      ) : (
        <>
          <p role="status" className="text-sm">
            {!account ? (
              <Trans>Not set up yet.</Trans>
            ) : account.payoutsEnabled ? (
              <Badge data-testid="payout-stripe-enabled">
                <Trans comment="Status: Stripe can send money to the driver">Payouts enabled</Trans>
              </Badge>
            ) : (
              <Trans>Stripe needs more details before it can pay you.</Trans>
            )}
          </p>
          <Button
            className="min-h-11 justify-self-start"
            disabled={start.isPending}
            onClick={() => {
              setError(null);
              start.mutate({});
            }}
          >
            {start.isPending ? (
              <Trans comment="Button while the Stripe onboarding page is being opened">Opening Stripe…</Trans>
            ) : account ? (
              <Trans comment="Button that opens Stripe's onboarding again to finish or update details">
                Continue on Stripe
              </Trans>
            ) : (
              <Trans comment="Button that starts Stripe payout onboarding">Set up Stripe payouts</Trans>
            )}
          </Button>
          <FieldError>{error}</FieldError>
        </>
      )}
    </section>
  );
}

function ChapaPayouts({ setup }: { setup: TSetup["chapa"] }) {
  const [editing, setEditing] = useState(false);
  const method = setup.method;
  return (
    <section className="grid gap-2" data-testid="payout-chapa" aria-labelledby="payout-chapa-title">
      <h3 id="payout-chapa-title" className="flex flex-wrap items-center gap-2 font-medium">
        <Trans comment="Heading: payouts in Ethiopian birr through Chapa to a bank or mobile money">
          Birr (Chapa: bank or mobile money)
        </Trans>
        {setup.state === "sandbox" ? <SandboxBadge /> : null}
      </h3>
      {setup.state === "not_configured" ? (
        <p className="text-sm text-muted-foreground">
          <Trans>Chapa payouts are not available on this server.</Trans>
        </p>
      ) : editing || !method ? (
        <ChapaForm onDone={() => setEditing(false)} canCancel={!!method} />
      ) : (
        <div className="grid gap-2">
          <p role="status" className="text-sm" data-testid="payout-chapa-method">
            {method.bankName} · {method.accountNumber} · {method.accountName}
          </p>
          <Button variant="outline" className="min-h-11 justify-self-start" onClick={() => setEditing(true)}>
            <Trans comment="Button that changes the saved bank account or wallet for payouts">Change</Trans>
          </Button>
        </div>
      )}
    </section>
  );
}

function ChapaForm({ onDone, canCancel }: { onDone: () => void; canCancel: boolean }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const banks = useQuery(trpc.payouts.banks.queryOptions());
  const [errors, setErrors] = useState<TErrors>({});
  const [draft, setDraft] = useState<{ bank: TPayoutBank; accountNumber: string; accountName: string } | null>(null);
  const save = useMutation(
    trpc.payouts.saveChapa.mutationOptions({
      onSuccess: async () => {
        setDraft(null);
        await queryClient.invalidateQueries({ queryKey: trpc.payouts.setup.queryKey() });
        onDone();
      },
      onError: (err) => {
        const info = errorInfo(err);
        setDraft(null);
        if (info.status === 400 && info.issues.length) {
          const next: TErrors = {};
          for (const i of info.issues)
            if (i.path === "bankCode" || i.path === "accountNumber" || i.path === "accountName")
              next[i.path] ??= i.message;
            else next.form ??= i.message;
          setErrors(next);
        } else
          setErrors({
            form: info.status === 0 ? t`Could not reach MyTess. Check your connection and try again.` : info.message,
          });
      },
    }),
  );
  if (banks.isPending)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        <Trans comment="Status while the list of banks and wallets for payouts loads">Loading banks…</Trans>
      </p>
    );
  if (banks.isError)
    return (
      <LoadError
        title={<Trans>The list of banks could not be loaded.</Trans>}
        error={banks.error}
        onRetry={banks.refetch}
      />
    );
  if (banks.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Chapa lists no banks right now. Try again later.</Trans>
      </p>
    );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const bank = banks.data.find((b) => String(b.id) === String(f.get("bankCode")));
    const accountNumber = String(f.get("accountNumber") ?? "").replace(/[\s-]/g, "");
    const accountName = String(f.get("accountName") ?? "").trim();
    const next: TErrors = {};
    if (!bank) next.bankCode = t`Choose a bank or wallet`;
    else if (!/^\d+$/.test(accountNumber) || (bank.acctLength && accountNumber.length !== bank.acctLength))
      next.accountNumber = bank.acctLength
        ? t`Enter the ${bank.acctLength}-digit number`
        : t`Enter the account number (digits only)`;
    if (accountName.length < 3) next.accountName = t`Enter the account holder's full name`;
    setErrors(next);
    if (bank && !Object.keys(next).length) setDraft({ bank, accountNumber, accountName });
  };
  if (draft)
    return (
      <div className="grid gap-3 rounded-md border p-3" data-testid="payout-chapa-confirm">
        <p>
          <Trans>
            Money will be sent to <strong>{draft.accountName}</strong>, {draft.bank.name} {draft.accountNumber}. Is this
            name exactly as on the account? A transfer to a different name fails.
          </Trans>
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            className="min-h-11"
            disabled={save.isPending}
            onClick={() =>
              save.mutate({
                bankCode: draft.bank.id,
                accountNumber: draft.accountNumber,
                accountName: draft.accountName,
                accountNameConfirmed: true,
              })
            }
          >
            {save.isPending ? (
              <Trans comment="Button while the payout account is being saved">Saving…</Trans>
            ) : (
              <Trans comment="Button confirming the account holder's name and saving the payout account">
                Yes, save
              </Trans>
            )}
          </Button>
          <Button variant="ghost" className="min-h-11" onClick={() => setDraft(null)}>
            <Trans comment="Button that goes back to correct the payout account details">Correct it</Trans>
          </Button>
        </div>
      </div>
    );
  return (
    <form className="grid gap-3" onSubmit={submit} noValidate>
      <div className="grid gap-2">
        <Label htmlFor="payout-bank">
          <Trans comment="Label of the choice of bank or mobile-money wallet for payouts">Bank or wallet</Trans>
        </Label>
        <NativeSelect id="payout-bank" name="bankCode" className="min-h-11" defaultValue="">
          <option value="" disabled>
            {t({ message: "Choose…", comment: "First, empty entry of the bank or wallet choice" })}
          </option>
          {banks.data.map((b) => (
            <option key={b.id} value={b.id}>
              {b.mobileMoney
                ? t({
                    message: `${b.name} (mobile money)`,
                    comment: "A mobile-money wallet (telebirr, M-Pesa) in the bank choice",
                  })
                : b.name}
            </option>
          ))}
        </NativeSelect>
        <FieldError>{errors.bankCode}</FieldError>
      </div>
      <TextField
        id="payout-account-number"
        name="accountNumber"
        inputMode="numeric"
        className="min-h-11"
        label={
          <Trans comment="Label: a bank account number, or the phone number of a mobile-money wallet">
            Account or wallet phone number
          </Trans>
        }
        error={errors.accountNumber}
      />
      <TextField
        id="payout-account-name"
        name="accountName"
        autoComplete="name"
        className="min-h-11"
        label={<Trans comment="Label: the name of the bank account's holder">Account holder's name</Trans>}
        error={errors.accountName}
      />
      <FieldError>{errors.form}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" className="min-h-11">
          <Trans comment="Button that goes on to confirm the payout account details">Continue</Trans>
        </Button>
        {canCancel ? (
          <Button type="button" variant="ghost" className="min-h-11" onClick={onDone}>
            <Trans comment="Button that closes a form without saving">Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}
