import { Trans } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Building2 } from "lucide-react";
import { useState } from "react";
import { loginHref, useMe } from "../../lib/auth";
import { usePreferences } from "../../lib/preferences";
import { errorInfo, messageIdOf, trpc } from "../../lib/trpc";
import { ContactNeeded } from "../account/contact-needed";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { FieldError } from "../ui/input";
import { useCompanyWords } from "./role-label";

/**
 * The page an invitation's mail or SMS links to: who invites to which role, then Accept for the signed-in account, or
 * sign in / sign up first and come back here.
 */
export function InvitationPage({ token }: { token: string }) {
  const words = useCompanyWords();
  const { formatDate } = usePreferences();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const preview = useQuery({ ...trpc.companies.preview.queryOptions({ token }), retry: false });
  const accept = useMutation(trpc.companies.accept.mutationOptions());
  const [error, setError] = useState<{ message: string; id?: string }>();

  if (preview.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans>Getting the invitation…</Trans>
      </p>
    );
  if (preview.isError) {
    const info = errorInfo(preview.error);
    return (
      <Card data-testid="invitation-error">
        <CardHeader>
          <CardTitle>
            <Trans comment="Page title when an invitation link cannot be used">Invitation not available</Trans>
          </CardTitle>
          <CardDescription role="alert">
            {info.status === 0 ? (
              <Trans>The invitation could not be loaded. Check your connection and try again.</Trans>
            ) : (
              info.message
            )}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {info.status === 0 ? (
            <Button variant="outline" className="min-h-11" onClick={() => void preview.refetch()}>
              <Trans comment="Button: load again after a failure">Try again</Trans>
            </Button>
          ) : (
            <Button asChild variant="outline" className="min-h-11">
              <Link to="/">
                <Trans comment="Link to the start page">Go to MyTess</Trans>
              </Link>
            </Button>
          )}
        </CardContent>
      </Card>
    );
  }

  const { company, role, contact, sentTo, expiresAt } = preview.data;
  const companyName = company.name;
  const roleName = words.role[role];
  const kindName = words.kind[company.kind];
  const until = formatDate(expiresAt, { dateStyle: "medium" });
  const returnTo = `/invitations/${token}`;
  const accountType = company.kind === "carrier" ? "driver" : "shipper";
  const user = me.data;
  const userName = user ? `${user.firstName} ${user.lastName}` : "";

  const onAccept = async () => {
    setError(undefined);
    try {
      const joined = await accept.mutateAsync({ token });
      queryClient.setQueryData(trpc.companies.mine.queryKey(), joined);
      await navigate({ to: "/company" });
    } catch (err) {
      setError({ message: errorInfo(err).message, id: messageIdOf(err) });
    }
  };

  return (
    <Card data-testid="invitation">
      <CardHeader>
        <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-teal-100 text-teal-900">
          <Building2 aria-hidden className="size-6" />
        </div>
        <CardTitle className="text-2xl">
          <Trans>Join {companyName} on MyTess</Trans>
        </CardTitle>
        <CardDescription data-testid="invitation-summary">
          <Trans>
            {companyName} ({kindName}) invites you to join as {roleName}.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm text-muted-foreground">
          {sentTo === "email" ? (
            <Trans>
              Sent to {contact}. Accept with the account that uses this email address. The invitation works until{" "}
              {until}.
            </Trans>
          ) : (
            <Trans>
              Sent to {contact}. Accept with an account that has confirmed this phone number. The invitation works until{" "}
              {until}.
            </Trans>
          )}
        </p>
        {user ? (
          <>
            <p className="text-sm">
              <Trans>Signed in as {userName}.</Trans>
            </p>
            {error?.id === "error.company.invitationConfirmEmail" && user.email ? (
              <ConfirmEmailFirst message={error.message} email={user.email} />
            ) : error?.id === "error.company.invitationOtherPhone" ? (
              <ContactNeeded message={error.message} />
            ) : (
              <FieldError>{error?.message}</FieldError>
            )}
            <Button
              className="min-h-11 sm:justify-self-start"
              disabled={accept.isPending}
              onClick={() => void onAccept()}
              data-testid="accept-invitation"
            >
              {accept.isPending ? (
                <Trans comment="Button while the invitation is being accepted">Accepting…</Trans>
              ) : (
                <Trans comment="Button: accept the company invitation">Accept the invitation</Trans>
              )}
            </Button>
          </>
        ) : (
          <div className="grid gap-2 sm:flex">
            <Button asChild className="min-h-11">
              <a href={loginHref(returnTo, accountType, "signin")} data-testid="invitation-sign-in">
                <Trans comment="Button on an invitation page: sign in, then accept">Sign in to accept</Trans>
              </a>
            </Button>
            <Button asChild variant="outline" className="min-h-11">
              <a href={loginHref(returnTo, accountType, "register")} data-testid="invitation-sign-up">
                <Trans comment="Button on an invitation page: open a new account, then accept">
                  Create an account to accept
                </Trans>
              </a>
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The invited address is the account's but not yet confirmed: the message, and the confirmation link sent again (the
 * sign-up's mail may be lost or expired). Once it is opened, Accept works on this page.
 */
function ConfirmEmailFirst({ message, email }: { message: string; email: string }) {
  const send = useMutation(trpc.user.addEmail.mutationOptions());
  const sendError = send.isError ? errorInfo(send.error) : null;
  return (
    <div
      role="alert"
      data-testid="invitation-confirm-email"
      className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p>{message}</p>
      {send.isSuccess ? (
        <p role="status" data-testid="confirmation-sent">
          <Trans>We sent a new link to {email}. Open it, then come back here and accept the invitation.</Trans>
        </p>
      ) : (
        <>
          {sendError ? (
            <FieldError>
              {sendError.status === 0 ? (
                <Trans>Could not reach MyTess. Check your connection and try again.</Trans>
              ) : (
                sendError.message
              )}
            </FieldError>
          ) : null}
          <Button
            type="button"
            variant="outline"
            className="min-h-11 justify-self-start"
            disabled={send.isPending}
            onClick={() => send.mutate({ email })}
            data-testid="send-confirmation"
          >
            {send.isPending ? (
              <Trans comment="Button while a confirmation link is being sent">Sending...</Trans>
            ) : (
              <Trans comment="Button on an invitation page: mail the link that confirms the account's email">
                Send the confirmation link
              </Trans>
            )}
          </Button>
        </>
      )}
    </div>
  );
}
