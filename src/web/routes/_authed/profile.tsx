import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { PageHeader } from "../../components/layout/page-header";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { TextField } from "../../components/ui/input";
import { meQueryOptions, useMe } from "../../lib/auth";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";

export const Route = createFileRoute("/_authed/profile")({ component: ProfilePage });

function ProfilePage() {
  const { t } = useLingui();
  const fromRoute = Route.useRouteContext().me;
  const me = useMe().data ?? fromRoute;
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<{ firstName?: string; lastName?: string }>({});
  const save = useMutation(
    trpc.user.updateProfile.mutationOptions({
      onSuccess: ({ user }) => {
        queryClient.setQueryData(meQueryOptions().queryKey, user);
        toast({
          title: t({ message: "Profile saved", comment: "Notice title after the profile was saved" }),
          description: t`Your name has been updated.`,
          variant: "success",
        });
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`Failed to save your profile. Please try again.`,
          variant: "destructive",
        }),
    }),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const firstName = String(f.get("firstName") ?? "").trim();
    const lastName = String(f.get("lastName") ?? "").trim();
    const next = {
      firstName: firstName ? undefined : t`Enter your first name`,
      lastName: lastName ? undefined : t`Enter your last name`,
    };
    setErrors(next);
    if (firstName && lastName) save.mutate({ firstName, lastName });
  };
  const since = formatDate(me.createdAt);
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={
          <Trans comment="Account menu item and page title: the user's own details (name, account type)">Profile</Trans>
        }
        description={<Trans comment="Profile page: the date the account was opened">Member since {since}</Trans>}
      />
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            {me.email}
            <Badge variant="secondary" data-testid="profile-user-type">
              {me.userType === "driver" ? (
                <Trans comment="Account type (sign-up choice, profile badge) and header link: a truck driver who bids on loads">
                  Driver
                </Trans>
              ) : (
                <Trans comment="Account type (sign-up choice, profile badge): a person or company with freight to move, who posts loads">
                  Shipper
                </Trans>
              )}
            </Badge>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4" onSubmit={submit} noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                id="profile-first"
                label=<Trans comment="Label of the first (given) name field">First name</Trans>
                name="firstName"
                defaultValue={me.firstName}
                error={errors.firstName}
              />
              <TextField
                id="profile-last"
                label=<Trans comment="Label of the last name field (father's name in Ethiopian naming)">
                  Last name
                </Trans>
                name="lastName"
                defaultValue={me.lastName}
                error={errors.lastName}
              />
            </div>
            <div>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <Trans>Saving...</Trans> : <Trans>Save</Trans>}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
