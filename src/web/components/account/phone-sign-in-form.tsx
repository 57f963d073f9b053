import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TUserType } from "../../../shared/constants";
import { normalizePhone } from "../../../shared/phone";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { FieldError, TextField } from "../ui/input";

type TErrors = Partial<Record<"phone" | "code" | "firstName" | "lastName" | "userType" | "form", string>>;

/**
 * Signing up or in with a phone number: the number, then the 6-digit code sent to it by SMS. Signing up asks for the
 * name and role beside the code; signing in asks for them only if the server says the number has no account yet
 * (which it says only once the code is right).
 */
export function PhoneSignInForm({
  signUp,
  initialType,
  onDone,
  onUseEmail,
}: {
  signUp: boolean;
  initialType?: TUserType;
  onDone: () => Promise<void>;
  onUseEmail: () => void;
}) {
  const { t } = useLingui();
  const [phone, setPhone] = useState<string | null>(null);
  const [errors, setErrors] = useState<TErrors>({});
  const [needDetails, setNeedDetails] = useState(signUp);
  const [userType, setUserType] = useState<TUserType | undefined>(initialType);
  const failed = (err: unknown) => {
    const info = errorInfo(err);
    if (info.status === 400 && info.issues.length) {
      const out: TErrors = {};
      for (const i of info.issues) out[i.path as keyof TErrors] ??= i.message;
      if (out.firstName || out.lastName || out.userType) setNeedDetails(true);
      setErrors(out);
    } else if (info.status === 429) setErrors({ form: info.message });
    else if (info.status === 0) setErrors({ form: t`Could not reach MyTess. Check your connection and try again.` });
    else setErrors({ form: t`Something went wrong. Please try again.` });
  };
  const start = useMutation(trpc.auth.phoneStart.mutationOptions({ onError: failed }));
  const verify = useMutation(trpc.auth.phoneVerify.mutationOptions({ onSuccess: onDone, onError: failed }));

  const submitPhone = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const typed = normalizePhone(String(new FormData(e.currentTarget).get("phone") ?? ""));
    if (!typed) {
      setErrors({ phone: t`Enter a phone number such as 0911 23 45 67 or +251 911 234 567` });
      return;
    }
    setErrors({});
    start.mutate({ phone: typed }, { onSuccess: () => setPhone(typed) });
  };
  const submitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!phone) return;
    const f = new FormData(e.currentTarget);
    const code = String(f.get("code") ?? "").trim();
    const firstName = String(f.get("firstName") ?? "").trim();
    const lastName = String(f.get("lastName") ?? "").trim();
    const next: TErrors = {};
    if (!/^\d{6}$/.test(code)) next.code = t`Enter the 6-digit code from the SMS`;
    if (needDetails) {
      if (!firstName) next.firstName = t`Enter your first name`;
      if (!lastName) next.lastName = t`Enter your last name`;
      if (!userType) next.userType = t`Choose whether you drive or ship`;
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    verify.mutate(needDetails ? { phone, code, firstName, lastName, userType } : { phone, code });
  };

  if (!phone)
    return (
      <form className="mt-4 grid gap-4" onSubmit={submitPhone} noValidate>
        <TextField
          id={signUp ? "reg-phone" : "signin-phone"}
          label={
            <Trans comment="Label of the phone number field when signing up or in with a phone">Phone number</Trans>
          }
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          error={errors.phone}
        />
        <FieldError>{errors.form}</FieldError>
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? (
            <Trans comment="Button while a sign-in code is being asked for">Sending...</Trans>
          ) : (
            <Trans comment="Button that asks for a sign-in code by SMS">Send code</Trans>
          )}
        </Button>
        <Button type="button" variant="ghost" className="min-h-11" onClick={onUseEmail}>
          <Trans>Use my email instead</Trans>
        </Button>
      </form>
    );

  const typeOption = (value: TUserType, label: string) => (
    <label
      className={`flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border p-3 text-sm ${userType === value ? "border-brand bg-teal-50" : ""}`}
    >
      <input
        type="radio"
        name="userType"
        value={value}
        checked={userType === value}
        onChange={() => setUserType(value)}
      />
      {label}
    </label>
  );
  return (
    <form className="mt-4 grid gap-4" onSubmit={submitCode} noValidate>
      <p className="text-sm" role="status">
        <Trans>We sent a 6-digit code by SMS to {phone}. It works for 30 minutes.</Trans>
      </p>
      <TextField
        id="phone-code"
        label={<Trans comment="Label of the field for the 6-digit code sent by SMS">Code from the SMS</Trans>}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        error={errors.code}
      />
      {needDetails && (
        <>
          {!signUp && (
            <p className="text-sm text-muted-foreground">
              <Trans>No account uses this number yet. Tell us who you are to create one.</Trans>
            </p>
          )}
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">
              <Trans>I am a</Trans>
            </legend>
            <div className="grid grid-cols-2 gap-2">
              {typeOption("driver", t`Driver`)}
              {typeOption(
                "shipper",
                t({
                  message: "Shipper",
                  comment:
                    "Account type (sign-up choice, profile badge): a person or company with freight to move, who posts loads",
                }),
              )}
            </div>
            <FieldError>{errors.userType}</FieldError>
          </fieldset>
          <div className="grid grid-cols-2 gap-3">
            <TextField
              id="phone-first"
              label={<Trans comment="Label of the first (given) name field">First name</Trans>}
              name="firstName"
              autoComplete="given-name"
              error={errors.firstName}
            />
            <TextField
              id="phone-last"
              label={
                <Trans comment="Label of the last name field (father's name in Ethiopian naming)">Last name</Trans>
              }
              name="lastName"
              autoComplete="family-name"
              error={errors.lastName}
            />
          </div>
        </>
      )}
      <FieldError>{errors.form}</FieldError>
      <Button type="submit" disabled={verify.isPending}>
        {verify.isPending ? (
          <Trans comment="Sign-in button while signing in">Signing in...</Trans>
        ) : needDetails ? (
          <Trans comment="Sign-in page tab and button: open a new MyTess account">Create account</Trans>
        ) : (
          <Trans comment="Sign-in page tab and button: sign in to an existing account">Sign in</Trans>
        )}
      </Button>
      <Button
        type="button"
        variant="ghost"
        className="min-h-11"
        onClick={() => {
          setErrors({});
          setPhone(null);
        }}
      >
        <Trans comment="Button to go back and type another phone number or ask for a new code">Send a new code</Trans>
      </Button>
    </form>
  );
}
