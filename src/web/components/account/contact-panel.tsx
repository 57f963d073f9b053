import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useMe } from "../../lib/auth";
import { errorInfo, trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { FieldError, TextField } from "../ui/input";
import { LoadError } from "../ui/load-error";
import { PhoneSection } from "./phone-section";

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Settings → "Sign-in and contact": the account's email (confirmed, or not yet with "Send the link again"; a phone
 * account adds one) and its phone number (added with a code by SMS). A confirmed email or phone lets the account post
 * more than a few loads and pay for them.
 */
export function ContactPanel() {
  return (
    <Card data-testid="contact-settings" id="contact">
      <CardHeader>
        <CardTitle>
          <Trans comment="Title of the settings card with the account's email and phone number">
            Sign-in and contact
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Confirm your email or phone to post more than 3 loads and to pay for loads.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <EmailSection />
        <PhoneSection />
      </CardContent>
    </Card>
  );
}

function EmailSection() {
  const { t } = useLingui();
  const me = useMe();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const send = useMutation(
    trpc.user.addEmail.mutationOptions({
      onSuccess: (_, input) => {
        setErrors({});
        setSentTo(input.email);
      },
      onError: (err) => {
        const info = errorInfo(err);
        if ((info.status === 400 || info.status === 409) && info.issues.length)
          setErrors({ email: info.issues[0]!.message });
        else if (info.status === 429 || info.status === 409) setErrors({ form: info.message });
        else if (info.status === 0)
          setErrors({ form: t`Could not reach MyTess. Check your connection and try again.` });
        else setErrors({ form: t`Something went wrong. Please try again.` });
      },
    }),
  );
  const submitEmail = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
    if (!EMAIL_RE.test(email)) {
      setErrors({ email: t`Enter an email address such as name@example.com` });
      return;
    }
    setErrors({});
    send.mutate({ email });
  };
  const user = me.data;
  return (
    <section className="grid gap-3" data-testid="email-settings" aria-labelledby="email-section-title">
      <h3 id="email-section-title" className="font-medium">
        <Trans comment="Title of the email part of the settings card">Email</Trans>
      </h3>
      {me.isPending ? (
        <p role="status">
          <Trans>Loading...</Trans>
        </p>
      ) : me.isError || !user ? (
        <LoadError
          title={<Trans>Your account could not be loaded. Reload the page to try again.</Trans>}
          error={me.error}
          onRetry={me.refetch}
        />
      ) : user.email ? (
        <div className="grid gap-2">
          <p className="flex flex-wrap items-center gap-2" data-testid="email-status">
            <span className="break-all">{user.email}</span>
            {user.emailVerified ? (
              <Badge variant="success">
                <Trans comment="Badge beside the account's email once proven by its link">Confirmed</Trans>
              </Badge>
            ) : (
              <Badge variant="warning">
                <Trans comment="Badge beside the account's email while its link has not been opened">
                  Not confirmed
                </Trans>
              </Badge>
            )}
          </p>
          {user.emailVerified ? null : sentTo ? (
            <p role="status" className="text-sm">
              <Trans>We sent a new link to {sentTo}. It works for 24 hours.</Trans>
            </p>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                <Trans>Open the link we mailed to you to confirm this address.</Trans>
              </p>
              <FieldError>{errors.form ?? errors.email}</FieldError>
              <Button
                type="button"
                variant="outline"
                className="min-h-11 justify-self-start"
                disabled={send.isPending}
                onClick={() => send.mutate({ email: user.email! })}
              >
                {send.isPending ? (
                  <Trans comment="Button while a confirmation link is being sent">Sending...</Trans>
                ) : (
                  <Trans comment="Button that mails a new link to confirm the account's email">
                    Send the link again
                  </Trans>
                )}
              </Button>
            </>
          )}
        </div>
      ) : sentTo ? (
        <p role="status">
          <Trans>We sent a link to {sentTo}. Open it within 24 hours to add this email to your account.</Trans>
        </p>
      ) : (
        <form className="grid gap-4" onSubmit={submitEmail} noValidate>
          <p className="text-sm text-muted-foreground">
            <Trans>Add an email to reset your password by mail and to sign in with it.</Trans>
          </p>
          <TextField
            id="contact-email"
            label={<Trans comment="Label of the field to add an email address in the settings">Email address</Trans>}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            error={errors.email}
          />
          <FieldError>{errors.form}</FieldError>
          <Button type="submit" className="min-h-11 justify-self-start" disabled={send.isPending}>
            {send.isPending ? (
              <Trans comment="Button while a confirmation link is being sent">Sending...</Trans>
            ) : (
              <Trans comment="Button that mails a link to an email address to add it to the account">Send link</Trans>
            )}
          </Button>
        </form>
      )}
    </section>
  );
}
