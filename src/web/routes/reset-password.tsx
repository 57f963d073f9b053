import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { PASSWORD_MIN_LENGTH } from "../../shared/constants";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { FieldError, TextField } from "../components/ui/input";
import { TOUCH_FORM } from "../components/ui/touch";
import { loadAppMessages } from "../lib/i18n";
import { errorInfo, trpc } from "../lib/trpc";

type TSearch = { token?: string; phone?: string };

export const Route = createFileRoute("/reset-password")({
  validateSearch: (raw: Record<string, unknown>): TSearch => ({
    token: typeof raw.token === "string" ? raw.token : undefined,
    phone: typeof raw.phone === "string" ? raw.phone : undefined,
  }),
  beforeLoad: () => loadAppMessages(),
  component: ResetPasswordPage,
});

type TErrors = { password?: string; confirm?: string; token?: string; code?: string; phone?: string; form?: string };

/**
 * The page a reset mail links to, and where a code sent by SMS is typed (`?phone=`): a new password, then the user is
 * signed in here and signed out everywhere else.
 */
function ResetPasswordPage() {
  const { t } = useLingui();
  const { token, phone } = Route.useSearch();
  const byCode = !token && Boolean(phone);
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<TErrors>({});
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      onSuccess: async () => {
        await queryClient.resetQueries();
        window.location.assign("/");
      },
      onError: (err) => {
        const info = errorInfo(err);
        if (info.status === 400 && info.issues.length) {
          const next: TErrors = {};
          for (const i of info.issues) next[i.path as keyof TErrors] ??= i.message;
          setErrors(next);
        } else if (info.status === 0)
          setErrors({ form: t`Could not reach MyTess. Check your connection and try again.` });
        else setErrors({ form: t`Something went wrong. Please try again.` });
      },
    }),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const password = String(f.get("password") ?? "");
    const confirm = String(f.get("confirm") ?? "");
    const code = String(f.get("code") ?? "").trim();
    const next: TErrors = {};
    if (byCode && !/^\d{6}$/.test(code)) next.code = t`Enter the 6 digits from the SMS`;
    if (password.length < PASSWORD_MIN_LENGTH) next.password = t`Use at least ${PASSWORD_MIN_LENGTH} characters`;
    else if (confirm !== password) next.confirm = t`The two passwords are not the same`;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    if (token) reset.mutate({ token, password });
    else if (byCode && phone) reset.mutate({ phone, code, password });
  };
  const askAgain = (
    <Link to="/forgot-password" className="inline-flex min-h-11 items-center text-brand underline">
      {byCode ? <Trans>Ask for a new code</Trans> : <Trans>Ask for a new link</Trans>}
    </Link>
  );
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">
            <Trans>Choose a new password</Trans>
          </CardTitle>
          <CardDescription>
            <Trans>Choosing a new password signs you out on every other device.</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className={TOUCH_FORM}>
          {byCode ? (
            <p className="mb-4 text-sm" role="status">
              <Trans>If an account uses {phone}, a 6-digit code is on its way by SMS. It works for 30 minutes.</Trans>
            </p>
          ) : null}
          {!token && !byCode ? (
            <div className="grid gap-2" role="alert">
              <p>
                <Trans>This reset link is incomplete. Open the link from the mail again, or ask for a new one.</Trans>
              </p>
              {askAgain}
            </div>
          ) : (
            <form className="grid gap-4" onSubmit={submit} noValidate>
              {byCode ? (
                <TextField
                  id="reset-code"
                  label={<Trans comment="Label of the field for the 6-digit code sent by SMS">Code from the SMS</Trans>}
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  error={errors.code ?? errors.phone}
                />
              ) : null}
              <TextField
                id="reset-password"
                label={<Trans comment="Label of the new password field on the reset page">New password</Trans>}
                name="password"
                type="password"
                autoComplete="new-password"
                error={errors.password}
              />
              <TextField
                id="reset-confirm"
                label={<Trans comment="Label of the field repeating the new password">Repeat the new password</Trans>}
                name="confirm"
                type="password"
                autoComplete="new-password"
                error={errors.confirm}
              />
              {errors.token ? (
                <div className="grid gap-1" role="alert">
                  <FieldError>{errors.token}</FieldError>
                  {askAgain}
                </div>
              ) : null}
              <FieldError>{errors.form}</FieldError>
              <Button type="submit" disabled={reset.isPending}>
                {reset.isPending ? (
                  <Trans comment="Button while the new password is being saved">Saving...</Trans>
                ) : (
                  <Trans comment="Button that saves the new password">Set new password</Trans>
                )}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
