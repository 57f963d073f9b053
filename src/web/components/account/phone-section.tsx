import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { normalizePhone } from "../../../shared/phone";
import { meQueryOptions, useMe } from "../../lib/auth";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { FieldError, TextField } from "../ui/input";

type TErrors = { phone?: string; code?: string; form?: string };

/**
 * The account's phone number, proven by a code sent to it by SMS: with it the password can be reset by SMS and the
 * account can sign in by code. Adding or changing it takes two steps (the number, then the code); the number is saved
 * only once the code is right. A section of the "Sign-in and contact" card.
 */
export function PhoneSection() {
  const { t } = useLingui();
  const me = useMe();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<string | null>(null);
  const [errors, setErrors] = useState<TErrors>({});
  const onError = (err: unknown) => {
    const info = errorInfo(err);
    if ((info.status === 400 || info.status === 409) && info.issues.length) {
      const next: TErrors = {};
      for (const i of info.issues) next[i.path === "phone" ? "phone" : "code"] ??= i.message;
      setErrors(next);
    } else if (info.status === 429) setErrors({ form: info.message });
    else if (info.status === 0) setErrors({ form: t`Could not reach MyTess. Check your connection and try again.` });
    else setErrors({ form: t`Something went wrong. Please try again.` });
  };
  const add = useMutation(trpc.user.addPhone.mutationOptions({ onError }));
  const confirm = useMutation(
    trpc.user.confirmPhone.mutationOptions({
      onError,
      onSuccess: async () => {
        setPending(null);
        await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
      },
    }),
  );
  const submitPhone = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const phone = normalizePhone(String(new FormData(e.currentTarget).get("phone") ?? ""));
    if (!phone) {
      setErrors({ phone: t`Enter a phone number such as 0911 23 45 67 or +251 911 234 567` });
      return;
    }
    setErrors({});
    add.mutate({ phone }, { onSuccess: () => setPending(phone) });
  };
  const submitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get("code") ?? "").trim();
    if (!/^\d{6}$/.test(code)) {
      setErrors({ code: t`Enter the 6 digits from the SMS` });
      return;
    }
    setErrors({});
    if (pending) confirm.mutate({ phone: pending, code });
  };
  const current = me.data?.phone ?? null;
  return (
    <section className="grid gap-3" data-testid="phone-settings" aria-labelledby="phone-section-title">
      <h3 id="phone-section-title" className="font-medium">
        <Trans comment="Title of the settings card for the account's phone number">Phone number</Trans>
      </h3>
      <p className="text-sm text-muted-foreground">
        <Trans>With a confirmed phone number you can reset your password by SMS.</Trans>
      </p>
      <div className="grid gap-4">
        {me.isPending ? (
          <p role="status">
            <Trans>Loading...</Trans>
          </p>
        ) : (
          <p role="status">
            {current ? (
              <Trans comment="The account's phone number, proven by a code, in the settings">
                Confirmed: {current}
              </Trans>
            ) : (
              <Trans comment="The account has no phone number yet">No phone number yet.</Trans>
            )}
          </p>
        )}
        {pending ? (
          <form className="grid gap-4" onSubmit={submitCode} noValidate>
            <p>
              <Trans>We sent a 6-digit code by SMS to {pending}. It works for 30 minutes.</Trans>
            </p>
            <TextField
              id="phone-code"
              label={<Trans comment="Label of the field for the 6-digit code sent by SMS">Code from the SMS</Trans>}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              error={errors.code}
            />
            <FieldError>{errors.form}</FieldError>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" className="min-h-11" disabled={confirm.isPending}>
                {confirm.isPending ? (
                  <Trans comment="Button while the phone number is being confirmed">Confirming...</Trans>
                ) : (
                  <Trans comment="Button that confirms a phone number with the code">Confirm number</Trans>
                )}
              </Button>
              <Button type="button" variant="ghost" className="min-h-11" onClick={() => setPending(null)}>
                <Trans comment="Button that goes back to typing another phone number">Use another number</Trans>
              </Button>
            </div>
          </form>
        ) : (
          <form className="grid gap-4" onSubmit={submitPhone} noValidate>
            <TextField
              id="phone-number"
              label={
                current ? (
                  <Trans comment="Label of the field for a new phone number">New phone number</Trans>
                ) : (
                  <Trans comment="Label of the phone number field in the settings">Phone number</Trans>
                )
              }
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              error={errors.phone}
            />
            <FieldError>{errors.form}</FieldError>
            <Button type="submit" className="min-h-11 justify-self-start" disabled={add.isPending}>
              {add.isPending ? (
                <Trans comment="Button while the reset link is being asked for">Sending...</Trans>
              ) : (
                <Trans comment="Button that sends a code by SMS to a phone number">Send code</Trans>
              )}
            </Button>
          </form>
        )}
      </div>
    </section>
  );
}
