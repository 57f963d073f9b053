import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { normalizePhone } from "../../shared/phone";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { FieldError, TextField } from "../components/ui/input";
import { TOUCH_FORM } from "../components/ui/touch";
import { loadAppMessages } from "../lib/i18n";
import { errorInfo, trpc } from "../lib/trpc";

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const Route = createFileRoute("/forgot-password")({
  beforeLoad: () => loadAppMessages(),
  component: ForgotPasswordPage,
});

/**
 * "Forgot password?": asks for a reset link by mail, or a code by SMS for an account with a phone number (then the
 * code is typed on /reset-password). The answer never says whether the address or number has an account.
 */
function ForgotPasswordPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [mode, setMode] = useState<"email" | "phone">("email");
  const [errors, setErrors] = useState<{ email?: string; phone?: string; form?: string }>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const forgot = useMutation(
    trpc.auth.forgotPassword.mutationOptions({
      onError: (err) => {
        const info = errorInfo(err);
        if (info.status === 400 && info.issues.length)
          setErrors({ [info.issues[0]!.path === "phone" ? "phone" : "email"]: info.issues[0]!.message });
        else if (info.status === 429) setErrors({ form: info.message });
        else if (info.status === 0)
          setErrors({ form: t`Could not reach MyTess. Check your connection and try again.` });
        else setErrors({ form: t`Something went wrong. Please try again.` });
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
    forgot.mutate({ phone }, { onSuccess: () => navigate({ to: "/reset-password", search: { phone } }) });
  };
  const switchTo = (next: "email" | "phone") => {
    setErrors({});
    setMode(next);
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
    if (!EMAIL_RE.test(email)) {
      setErrors({ email: t`Enter a valid email address` });
      return;
    }
    setErrors({});
    forgot.mutate({ email }, { onSuccess: () => setSentTo(email) });
  };
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">
            <Trans>Forgot your password?</Trans>
          </CardTitle>
          <CardDescription>
            {mode === "email" ? (
              <Trans>Enter the email of your account. We will send you a link to choose a new password.</Trans>
            ) : (
              <Trans>
                Enter the phone number of your account. We will send a 6-digit code by SMS to choose a new password.
              </Trans>
            )}
          </CardDescription>
        </CardHeader>
        <CardContent className={TOUCH_FORM}>
          {mode === "phone" ? (
            <form className="grid gap-4" onSubmit={submitPhone} noValidate>
              <TextField
                id="forgot-phone"
                label={
                  <Trans comment="Label of the phone number field on the forgotten password page">Phone number</Trans>
                }
                name="phone"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                error={errors.phone}
              />
              <FieldError>{errors.form}</FieldError>
              <Button type="submit" disabled={forgot.isPending}>
                {forgot.isPending ? (
                  <Trans comment="Button while the reset link is being asked for">Sending...</Trans>
                ) : (
                  <Trans comment="Button that asks for a password reset code by SMS">Send code</Trans>
                )}
              </Button>
              <Button type="button" variant="ghost" className="min-h-11" onClick={() => switchTo("email")}>
                <Trans>Use my email instead</Trans>
              </Button>
            </form>
          ) : sentTo ? (
            <div className="grid gap-4" role="status">
              <p>
                <Trans>
                  If an account uses {sentTo}, a link to choose a new password is on its way. It works for 30 minutes.
                  Check your spam folder if it does not arrive.
                </Trans>
              </p>
              <Button variant="outline" onClick={() => setSentTo(null)}>
                <Trans>Send another link</Trans>
              </Button>
            </div>
          ) : (
            <form className="grid gap-4" onSubmit={submit} noValidate>
              <TextField
                id="forgot-email"
                label={<Trans comment="Label of the email field on the forgotten password page">Email</Trans>}
                name="email"
                type="email"
                autoComplete="email"
                error={errors.email}
              />
              <FieldError>{errors.form}</FieldError>
              <Button type="submit" disabled={forgot.isPending}>
                {forgot.isPending ? (
                  <Trans comment="Button while the reset link is being asked for">Sending...</Trans>
                ) : (
                  <Trans comment="Button that asks for a password reset link by mail">Send link</Trans>
                )}
              </Button>
              <Button type="button" variant="ghost" className="min-h-11" onClick={() => switchTo("phone")}>
                <Trans>No email? Get a code by SMS</Trans>
              </Button>
            </form>
          )}
          <p className="mt-6 text-center text-sm">
            <Link to="/signin" className="inline-flex min-h-11 items-center text-brand underline">
              <Trans>Back to sign in</Trans>
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
