import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, redirect } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { PASSWORD_MIN_LENGTH, type TUserType } from "../../shared/constants";
import { normalizePhone } from "../../shared/phone";
import { safeReturnTo } from "../../shared/return-to";
import { PhoneSignInForm } from "../components/account/phone-sign-in-form";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { FieldError, TextField } from "../components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { TOUCH_FORM } from "../components/ui/touch";
import { errorInfo, trpc } from "../lib/trpc";

// Hand-written so that the route table, which every page loads, does not pull in a schema library.
type TSearch = { returnTo?: string; userType?: TUserType; mode?: "signin" | "register" };
const validateSearch = (raw: Record<string, unknown>): TSearch => ({
  returnTo: typeof raw.returnTo === "string" ? raw.returnTo : undefined,
  userType: raw.userType === "driver" || raw.userType === "shipper" ? raw.userType : undefined,
  mode: raw.mode === "signin" || raw.mode === "register" ? raw.mode : undefined,
});
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const Route = createFileRoute("/signin")({
  validateSearch,
  beforeLoad: ({ context, search }) => {
    if (context.me) throw redirect({ href: safeReturnTo(search.returnTo, window.location.origin) });
  },
  component: SignInPage,
});

type TErrors = Partial<Record<"email" | "password" | "firstName" | "lastName" | "userType" | "form", string>>;

function SignInPage() {
  const search = Route.useSearch();
  const [tab, setTab] = useState(search.mode ?? (search.userType ? "register" : "signin"));
  // Drivers without email sign up and in with their phone number and a code by SMS.
  const [byPhone, setByPhone] = useState(false);
  const queryClient = useQueryClient();
  const done = async () => {
    await queryClient.resetQueries();
    window.location.assign(safeReturnTo(search.returnTo, window.location.origin));
  };
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">
            <Trans>Welcome to MyTess</Trans>
          </CardTitle>
          <CardDescription>
            <Trans>Sign in or create a free account. New accounts get 6 months of premium access free.</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className={TOUCH_FORM}>
          <Tabs value={tab} onValueChange={(v) => setTab(v as typeof tab)}>
            <TabsList fullWidth className="max-sm:h-auto">
              <TabsTrigger value="signin">
                <Trans comment="Sign-in page tab and button: sign in to an existing account">Sign in</Trans>
              </TabsTrigger>
              <TabsTrigger value="register">
                <Trans comment="Sign-in page tab and button: open a new MyTess account">Create account</Trans>
              </TabsTrigger>
            </TabsList>
            <TabsContent value="signin">
              {byPhone ? (
                <PhoneSignInForm signUp={false} onDone={done} onUseEmail={() => setByPhone(false)} />
              ) : (
                <>
                  <SignInForm onDone={done} />
                  <UsePhoneButton onClick={() => setByPhone(true)} />
                </>
              )}
            </TabsContent>
            <TabsContent value="register">
              {byPhone ? (
                <PhoneSignInForm
                  signUp
                  initialType={search.userType}
                  onDone={done}
                  onUseEmail={() => setByPhone(false)}
                />
              ) : (
                <>
                  <RegisterForm initialType={search.userType} onDone={done} />
                  <UsePhoneButton onClick={() => setByPhone(true)} />
                </>
              )}
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </div>
  );
}

function UsePhoneButton({ onClick }: { onClick: () => void }) {
  return (
    <Button type="button" variant="ghost" className="mt-2 min-h-11 w-full" onClick={onClick}>
      <Trans comment="Button on the sign-in and sign-up forms: use a phone number and an SMS code instead of email">
        Use phone number
      </Trans>
    </Button>
  );
}

function useServerErrorText() {
  const { t } = useLingui();
  return (err: unknown): TErrors => {
    const info = errorInfo(err);
    if (info.status === 401) return { form: t`Invalid email or password` };
    if (info.status === 409) return { email: t`An account with this email already exists` };
    if (info.status === 429) {
      const minutes = Math.max(1, Math.ceil((info.retryAfterSeconds ?? 60) / 60));
      return { form: t`Too many failed sign-in attempts. Try again in ${minutes} minutes.` };
    }
    if (info.status === 400 && info.issues.length) {
      const out: TErrors = {};
      for (const i of info.issues) out[i.path as keyof TErrors] ??= i.message;
      return out;
    }
    if (info.status === 0) return { form: t`Could not reach MyTess. Check your connection and try again.` };
    return { form: t`Something went wrong. Please try again.` };
  };
}

function SignInForm({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useLingui();
  const [errors, setErrors] = useState<TErrors>({});
  const serverErrors = useServerErrorText();
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: onDone,
      onError: (e, sent) => {
        const out = serverErrors(e);
        if (sent.phone !== undefined && errorInfo(e).status === 401) out.form = t`Invalid phone number or password`;
        setErrors(out);
      },
    }),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const login_ = String(f.get("email") ?? "").trim();
    const password = String(f.get("password") ?? "");
    // An address with "@" is an email; anything else must be a phone number (drivers who signed up by SMS).
    const phone = login_.includes("@") ? null : normalizePhone(login_);
    const next: TErrors = {};
    if (!login_) next.email = t`Enter your email or phone number`;
    else if (!login_.includes("@") && !phone)
      next.email = t`Enter an email address, or a phone number such as 0911 23 45 67`;
    if (!password) next.password = t`Enter your password`;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    login.mutate(phone ? { phone, password } : { email: login_, password });
  };
  return (
    <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
      <TextField
        id="signin-email"
        label=<Trans comment="Label of the sign-in field that takes the account's email address or its phone number">
          Email or phone number
        </Trans>
        name="email"
        type="text"
        inputMode="email"
        autoCapitalize="none"
        autoComplete="username"
        error={errors.email}
      />
      <TextField
        id="signin-password"
        label=<Trans comment="Label of a password field (sign in, sign up, a load board's credentials)">Password</Trans>
        name="password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
      />
      <Link
        to="/forgot-password"
        className="-mt-2 inline-flex min-h-11 items-center justify-self-end text-sm text-brand underline"
      >
        <Trans comment="Link under the sign-in form to the page that sends a password reset link">
          Forgot password?
        </Trans>
      </Link>
      <FieldError>{errors.form}</FieldError>
      <Button type="submit" disabled={login.isPending}>
        {login.isPending ? (
          <Trans comment="Sign-in button while signing in">Signing in...</Trans>
        ) : (
          <Trans>Sign in</Trans>
        )}
      </Button>
    </form>
  );
}

function RegisterForm({ initialType, onDone }: { initialType?: TUserType; onDone: () => Promise<void> }) {
  const { t } = useLingui();
  const [errors, setErrors] = useState<TErrors>({});
  const [userType, setUserType] = useState<TUserType | undefined>(initialType);
  const serverErrors = useServerErrorText();
  const register = useMutation(
    trpc.auth.register.mutationOptions({ onSuccess: onDone, onError: (e) => setErrors(serverErrors(e)) }),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const v = {
      firstName: String(f.get("firstName") ?? "").trim(),
      lastName: String(f.get("lastName") ?? "").trim(),
      email: String(f.get("email") ?? "").trim(),
      password: String(f.get("password") ?? ""),
    };
    const next: TErrors = {};
    if (!v.firstName) next.firstName = t`Enter your first name`;
    if (!v.lastName) next.lastName = t`Enter your last name`;
    if (!EMAIL_RE.test(v.email)) next.email = t`Enter a valid email address`;
    if (v.password.length < PASSWORD_MIN_LENGTH) next.password = t`Use at least ${PASSWORD_MIN_LENGTH} characters`;
    if (!userType) next.userType = t`Choose whether you drive or ship`;
    setErrors(next);
    if (Object.keys(next).length === 0 && userType) register.mutate({ ...v, userType });
  };
  const typeOption = (value: TUserType, label: string, hint: string) => (
    <label
      className={`flex cursor-pointer flex-col rounded-lg border p-3 text-sm ${userType === value ? "border-brand bg-teal-50" : ""}`}
    >
      <span className="flex items-center gap-2 font-medium">
        <input
          type="radio"
          name="userType"
          value={value}
          checked={userType === value}
          onChange={() => setUserType(value)}
        />
        {label}
      </span>
      <span className="mt-1 text-xs text-muted-foreground">{hint}</span>
    </label>
  );
  return (
    <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">
          <Trans>I am a</Trans>
        </legend>
        <div className="grid grid-cols-2 gap-2">
          {typeOption("driver", t`Driver`, t`I haul freight and want loads`)}
          {typeOption(
            "shipper",
            t({
              message: "Shipper",
              comment:
                "Account type (sign-up choice, profile badge): a person or company with freight to move, who posts loads",
            }),
            t`I have freight to move`,
          )}
        </div>
        <FieldError>{errors.userType}</FieldError>
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        <TextField
          id="reg-first"
          label=<Trans comment="Label of the first (given) name field">First name</Trans>
          name="firstName"
          autoComplete="given-name"
          error={errors.firstName}
        />
        <TextField
          id="reg-last"
          label=<Trans comment="Label of the last name field (father's name in Ethiopian naming)">Last name</Trans>
          name="lastName"
          autoComplete="family-name"
          error={errors.lastName}
        />
      </div>
      <TextField
        id="reg-email"
        label=<Trans comment="Label of the email field when signing up">Email</Trans>
        name="email"
        type="email"
        autoComplete="email"
        error={errors.email}
      />
      <TextField
        id="reg-password"
        label=<Trans>Password</Trans>
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
      />
      <FieldError>{errors.form}</FieldError>
      <Button type="submit" disabled={register.isPending}>
        {register.isPending ? (
          <Trans comment="Sign-up button while the account is being created">Creating account...</Trans>
        ) : (
          <Trans>Create account</Trans>
        )}
      </Button>
    </form>
  );
}
