import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { meQueryOptions, useMe } from "../lib/auth";
import { loadAppMessages } from "../lib/i18n";
import { errorInfo, trpc } from "../lib/trpc";

type TSearch = { token?: string };

export const Route = createFileRoute("/verify-email")({
  validateSearch: (raw: Record<string, unknown>): TSearch => ({
    token: typeof raw.token === "string" ? raw.token : undefined,
  }),
  beforeLoad: () => loadAppMessages(),
  component: VerifyEmailPage,
});

const linkClass = "inline-flex min-h-11 items-center text-brand underline";

/**
 * The page the confirmation mail links to: it uses the link at once (the link is the proof, so it works in a mail app's
 * browser that is not signed in) and says whether the address is now confirmed. A used or expired link says so, with
 * "Send the link again" for a signed-in account whose address is still unconfirmed, else the way to sign in.
 */
function VerifyEmailPage() {
  const { t } = useLingui();
  const { token } = Route.useSearch();
  const queryClient = useQueryClient();
  const confirm = useMutation(
    trpc.auth.confirmEmail.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
    }),
  );
  // Once per token, even when React mounts the page twice in development.
  const tried = useRef<string | null>(null);
  useEffect(() => {
    if (!token || tried.current === token) return;
    tried.current = token;
    confirm.mutate({ token });
  }, [token, confirm]);

  const info = confirm.isError ? errorInfo(confirm.error) : null;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">
            {confirm.isSuccess ? (
              <Trans comment="Title of the page a confirmation mail opens, once the address is confirmed">
                Email confirmed
              </Trans>
            ) : (
              <Trans comment="Title of the page a confirmation mail opens">Confirm your email</Trans>
            )}
          </CardTitle>
          {confirm.isSuccess ? (
            <CardDescription>
              <Trans>Your email address is confirmed. You can post as many loads as you need and pay for them.</Trans>
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent className="grid gap-3">
          {!token ? (
            <div className="grid gap-2" role="alert">
              <p>
                <Trans>This confirmation link is incomplete. Open the link from the mail again.</Trans>
              </p>
              <AskAgain />
            </div>
          ) : confirm.isSuccess ? (
            <div className="grid gap-2" role="status" data-testid="email-confirmed">
              <p className="flex items-center gap-2 font-medium text-green-800">
                <CheckCircle2 className="size-5" aria-hidden />
                <Trans comment="Message on the page a confirmation mail opens, once the address is confirmed">
                  Email confirmed
                </Trans>
              </p>
              <Link to="/settings" className={linkClass}>
                <Trans comment="Link from the email-confirmed page to the account's settings">Go to Settings</Trans>
              </Link>
            </div>
          ) : info ? (
            <div className="grid gap-2" role="alert" data-testid="email-link-error">
              {info.status === 0 ? (
                <>
                  <p>{t`Could not reach MyTess. Check your connection and try again.`}</p>
                  <Button
                    type="button"
                    className="min-h-11 justify-self-start"
                    onClick={() => confirm.mutate({ token })}
                  >
                    <Trans comment="Button that tries again to confirm the email once the connection is back">
                      Try again
                    </Trans>
                  </Button>
                </>
              ) : (
                <>
                  <p>
                    {info.status === 400 || info.status === 409
                      ? (info.issues[0]?.message ?? info.message)
                      : t`Something went wrong. Please try again.`}
                  </p>
                  <AskAgain />
                </>
              )}
            </div>
          ) : (
            <p role="status">
              <Trans comment="The page a confirmation mail opens, while the link is being checked">
                Confirming your email...
              </Trans>
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** A new link for a signed-in account whose address is still unconfirmed; signed out, the way to sign in first. */
function AskAgain() {
  const { t } = useLingui();
  const me = useMe();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation(
    trpc.user.addEmail.mutationOptions({
      onSuccess: (_, input) => setSentTo(input.email),
      onError: (err) => {
        const info = errorInfo(err);
        setError(
          info.status === 429 || info.status === 409
            ? info.message
            : info.status === 0
              ? t`Could not reach MyTess. Check your connection and try again.`
              : t`Something went wrong. Please try again.`,
        );
      },
    }),
  );
  if (me.isPending) return null;
  const user = me.data;
  if (!user)
    return (
      <Link to="/signin" search={{ returnTo: "/settings" }} className={linkClass}>
        <Trans comment="Link on a used or expired confirmation link's page: sign in to ask for a new link">
          Sign in to ask for a new link
        </Trans>
      </Link>
    );
  const email = user.email;
  if (user.emailVerified)
    return (
      <p>
        <Trans>Your email {email} is already confirmed.</Trans>{" "}
        <Link to="/settings" className={linkClass}>
          <Trans comment="Link from the email-confirmed page to the account's settings">Go to Settings</Trans>
        </Link>
      </p>
    );
  if (sentTo)
    return (
      <p role="status">
        <Trans>We sent a new link to {sentTo}. It works for 24 hours.</Trans>
      </p>
    );
  if (!email)
    return (
      <Link to="/settings" className={linkClass}>
        <Trans comment="Link from the email-confirmed page to the account's settings">Go to Settings</Trans>
      </Link>
    );
  return (
    <div className="grid gap-1">
      <Button
        type="button"
        className="min-h-11 justify-self-start"
        disabled={send.isPending}
        onClick={() => {
          setError(null);
          send.mutate({ email });
        }}
      >
        {send.isPending ? (
          <Trans comment="Button while a confirmation link is being sent">Sending...</Trans>
        ) : (
          <Trans comment="Button that mails a new link to confirm the account's email">Send the link again</Trans>
        )}
      </Button>
      {error ? (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
