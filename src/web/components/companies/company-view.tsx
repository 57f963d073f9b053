import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LogOut, UserMinus } from "lucide-react";
import { useState } from "react";
import { ROLES_OF, type TCompanyMember, type TCompanyRole, type TMyCompany } from "../../../shared/schemas/companies";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { NativeSelect } from "../ui/textarea";
import { ConfirmAction } from "./confirm-action";
import { InviteForm } from "./invite-form";
import { useCompanyWords } from "./role-label";

/** The company as its members see it; owners also manage members and invitations. */
export function CompanyView({ mine, myId }: { mine: TMyCompany; myId: number }) {
  const words = useCompanyWords();
  const { company, role } = mine;
  const owner = role === "owner";
  const name = company.name;
  const roleName = words.role[role];
  return (
    <div className="grid gap-4" data-testid="company-view">
      <Card>
        <CardHeader>
          <CardTitle className="text-xl" data-testid="company-name">
            {company.name}
          </CardTitle>
          <CardDescription>
            {words.kind[company.kind]} · {company.country} ·{" "}
            <Trans>
              You are {roleName} in {name}
            </Trans>
          </CardDescription>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <Trans comment="Card title: the people in the company">Members</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y" data-testid="company-members">
            {mine.members.map((m) => (
              <MemberRow key={m.userId} mine={mine} member={m} self={m.userId === myId} />
            ))}
          </ul>
        </CardContent>
      </Card>
      {owner && (
        <Card>
          <CardHeader>
            <CardTitle>
              <Trans comment="Card title and button: invite someone to join the company">Invite</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>
                We send a link by email or SMS. It works for 7 days, for the account with that email or confirmed phone
                number.
              </Trans>
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <InviteForm companyId={company.id} kind={company.kind} />
            <PendingInvitations mine={mine} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function MemberRow({ mine, member, self }: { mine: TMyCompany; member: TCompanyMember; self: boolean }) {
  const { t } = useLingui();
  const words = useCompanyWords();
  const online = useOnline();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<TCompanyRole>(member.role);
  const setRoleMutation = useMutation(trpc.companies.setRole.mutationOptions());
  const remove = useMutation(trpc.companies.removeMember.mutationOptions());
  const owner = mine.role === "owner";
  const person = `${member.firstName} ${member.lastName}`;
  const newRole = words.role[role];
  const companyName = mine.company.name;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.companies.mine.queryKey() });

  return (
    <li
      className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="company-member"
    >
      <div className="min-w-0">
        <div className="font-medium">
          {person}
          {self && (
            <span className="ml-2 text-sm text-muted-foreground">
              <Trans comment="After the user's own name in the members list">(you)</Trans>
            </span>
          )}
        </div>
        {!owner && (
          <Badge variant="secondary" data-testid="member-role">
            {words.role[member.role]}
          </Badge>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {owner && (
          <>
            <NativeSelect
              className="min-h-11 w-auto sm:min-h-9"
              value={role}
              onChange={(e) => setRole(e.target.value as TCompanyRole)}
              aria-label={t({ message: `Role of ${person}`, comment: "Screen-reader label of a member's role choice" })}
              data-testid="member-role-select"
            >
              {ROLES_OF[mine.company.kind].map((r) => (
                <option key={r} value={r}>
                  {words.role[r]}
                </option>
              ))}
            </NativeSelect>
            {role !== member.role && (
              <ConfirmAction
                testId="change-role"
                trigger={
                  <Button size="sm" className="min-h-11 sm:min-h-9" disabled={!online}>
                    <Trans comment="Button: save the member's new role">Change role</Trans>
                  </Button>
                }
                title={
                  <Trans comment="Dialog title: confirm giving the member (person) a new role (newRole, e.g. Dispatcher)">
                    Make {person} {newRole}?
                  </Trans>
                }
                description={<Trans>What they can do for the company changes at once.</Trans>}
                confirmLabel={<Trans comment="Button: save the member's new role">Change role</Trans>}
                onConfirm={async () => {
                  const next = await setRoleMutation.mutateAsync({ id: mine.company.id, userId: member.userId, role });
                  queryClient.setQueryData(trpc.companies.mine.queryKey(), next);
                }}
              />
            )}
          </>
        )}
        {self ? (
          <ConfirmAction
            testId="leave-company"
            trigger={
              <Button size="sm" variant="outline" className="min-h-11 sm:min-h-9" disabled={!online}>
                <LogOut aria-hidden />
                <Trans comment="Button: leave the company the user belongs to">Leave company</Trans>
              </Button>
            }
            title={<Trans comment="Dialog title: confirm leaving the company named">Leave {companyName}?</Trans>}
            description={
              <Trans>You stop acting for the company at once. You need a new invitation to come back.</Trans>
            }
            confirmLabel={<Trans comment="Button: leave the company the user belongs to">Leave company</Trans>}
            onConfirm={async () => {
              await remove.mutateAsync({ id: mine.company.id, userId: member.userId });
              queryClient.setQueryData(trpc.companies.mine.queryKey(), null);
            }}
          />
        ) : (
          owner && (
            <ConfirmAction
              testId="remove-member"
              trigger={
                <Button size="sm" variant="ghost" className="min-h-11 text-destructive sm:min-h-9" disabled={!online}>
                  <UserMinus aria-hidden />
                  <Trans comment="Button: remove a member from the company">Remove</Trans>
                </Button>
              }
              title={<Trans>Remove {person} from the company?</Trans>}
              description={
                <Trans>They stop acting for the company at once. Trips already assigned to them stay.</Trans>
              }
              confirmLabel={<Trans comment="Button: remove a member from the company">Remove</Trans>}
              onConfirm={async () => {
                await remove.mutateAsync({ id: mine.company.id, userId: member.userId });
                await refresh();
              }}
            />
          )
        )}
      </div>
    </li>
  );
}

function PendingInvitations({ mine }: { mine: TMyCompany }) {
  const words = useCompanyWords();
  const online = useOnline();
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const withdraw = useMutation(trpc.companies.withdrawInvitation.mutationOptions());
  return (
    <div className="grid gap-2">
      <h4 className="text-sm font-semibold">
        <Trans comment="Heading: invitations sent and not yet accepted">Pending invitations</Trans>
      </h4>
      {mine.invitations.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-invitations">
          <Trans>No invitations waiting for an answer.</Trans>
        </p>
      ) : (
        <ul className="divide-y" data-testid="company-invitations">
          {mine.invitations.map((i) => {
            const contact = i.email ?? i.phone ?? "";
            const until = formatDate(i.expiresAt, { dateStyle: "medium" });
            return (
              <li
                key={i.id}
                className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
                data-testid="company-invitation"
              >
                <div className="min-w-0">
                  <div className="truncate font-medium">{contact}</div>
                  <div className="text-sm text-muted-foreground">
                    {words.role[i.role]} ·{" "}
                    <Trans comment="After a pending invitation: the date its link stops working">
                      works until {until}
                    </Trans>
                  </div>
                </div>
                <ConfirmAction
                  testId="withdraw-invitation"
                  trigger={
                    <Button size="sm" variant="ghost" className="min-h-11 sm:min-h-9" disabled={!online}>
                      <Trans comment="Button: take back a company invitation that was not accepted yet">Withdraw</Trans>
                    </Button>
                  }
                  title={<Trans>Withdraw the invitation to {contact}?</Trans>}
                  description={<Trans>The link we sent stops working.</Trans>}
                  confirmLabel={
                    <Trans comment="Button: take back a company invitation that was not accepted yet">Withdraw</Trans>
                  }
                  onConfirm={async () => {
                    await withdraw.mutateAsync({ id: mine.company.id, invitationId: i.id });
                    await queryClient.invalidateQueries({ queryKey: trpc.companies.mine.queryKey() });
                  }}
                />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
