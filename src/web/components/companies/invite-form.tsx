import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ROLES_OF, type TCompanyKind, type TCompanyRole } from "../../../shared/schemas/companies";
import { useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { FieldError, Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { useCompanyWords } from "./role-label";

/** An owner invites someone by email or phone to one of the roles the company's kind has. */
export function InviteForm({ companyId, kind }: { companyId: number; kind: TCompanyKind }) {
  const { t } = useLingui();
  const words = useCompanyWords();
  const online = useOnline();
  const queryClient = useQueryClient();
  const roles = ROLES_OF[kind];
  const [by, setBy] = useState<"email" | "phone">("email");
  const [role, setRole] = useState<TCompanyRole>(kind === "carrier" ? "driver" : "staff");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invite = useMutation(trpc.companies.invite.mutationOptions());

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const contact = String(new FormData(form).get("contact") ?? "").trim();
    setErrors({});
    try {
      await invite.mutateAsync(
        by === "email" ? { id: companyId, email: contact, role } : { id: companyId, phone: contact, role },
      );
      form.reset();
      toast({
        title: t({ message: "Invitation sent", comment: "Notice title: a company invitation went out" }),
        variant: "success",
      });
      await queryClient.invalidateQueries({ queryKey: trpc.companies.mine.queryKey() });
    } catch (err) {
      const info = errorInfo(err);
      const fieldErrors: Record<string, string> = {};
      // The contact field shows what the server says of the email or the phone number.
      for (const issue of info.issues)
        fieldErrors[issue.path === "email" || issue.path === "phone" ? "contact" : issue.path] = issue.message;
      setErrors(info.issues.length ? fieldErrors : { form: info.message });
    }
  };

  return (
    <form className="grid gap-4" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="invite-form">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">
          <Trans comment="Field label: invite by email or by phone number">Send the invitation by</Trans>
        </legend>
        <div className="flex gap-4">
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input type="radio" name="by" checked={by === "email"} onChange={() => setBy("email")} />
            <Trans comment="Option: send by email">Email</Trans>
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input type="radio" name="by" checked={by === "phone"} onChange={() => setBy("phone")} />
            <Trans comment="Option: send by SMS to a phone number">SMS</Trans>
          </label>
        </div>
      </fieldset>
      <TextField
        key={by}
        id="invite-contact"
        name="contact"
        type={by === "email" ? "email" : "tel"}
        autoComplete="off"
        placeholder={by === "email" ? "name@example.com" : "+251911234567"}
        className="[&_input]:min-h-11"
        label={
          by === "email" ? (
            <Trans comment="Field label: the invited person's email address">Their email</Trans>
          ) : (
            <Trans comment="Field label: the invited person's phone number, with country code">
              Their phone number
            </Trans>
          )
        }
        error={errors.contact}
      />
      <div className="grid gap-2">
        <Label htmlFor="invite-role">
          <Trans comment="Field label: the role the invited person will have in the company">Role</Trans>
        </Label>
        <NativeSelect
          id="invite-role"
          className="min-h-11"
          value={role}
          onChange={(e) => setRole(e.target.value as TCompanyRole)}
          aria-invalid={!!errors.role}
          aria-describedby={errors.role ? "invite-role-error" : undefined}
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {words.role[r]}
            </option>
          ))}
        </NativeSelect>
        <FieldError id="invite-role-error">{errors.role}</FieldError>
      </div>
      <FieldError>{errors.form}</FieldError>
      <Button
        type="submit"
        className="min-h-11 sm:justify-self-start"
        disabled={invite.isPending || !online}
        data-testid="invite-submit"
      >
        {invite.isPending ? (
          <Trans comment="Button while the invitation is being sent">Sending…</Trans>
        ) : (
          <Trans comment="Button: send a company invitation">Send invitation</Trans>
        )}
      </Button>
    </form>
  );
}
