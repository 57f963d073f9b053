import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { TCompanyKind } from "../../../shared/schemas/companies";
import { useOnline } from "../../lib/online";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { FieldError, Label, TextField } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { useCompanyWords } from "./role-label";

/** For someone in no company: make one (a carrier from a driver account, a shipper business from a shipper one). */
export function CreateCompanyForm({ defaultKind }: { defaultKind: TCompanyKind }) {
  const { t } = useLingui();
  const words = useCompanyWords();
  const online = useOnline();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<TCompanyKind>(defaultKind);
  const [country, setCountry] = useState("ET");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation(trpc.companies.create.mutationOptions());

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setErrors({});
    const name = String(new FormData(e.currentTarget).get("name") ?? "");
    try {
      const made = await create.mutateAsync({ name, kind, country });
      queryClient.setQueryData(trpc.companies.mine.queryKey(), made);
    } catch (err) {
      const info = errorInfo(err);
      setErrors(
        info.issues.length ? Object.fromEntries(info.issues.map((i) => [i.path, i.message])) : { form: info.message },
      );
    }
  };

  return (
    <Card data-testid="create-company">
      <CardHeader>
        <CardTitle>
          <Trans comment="Card title and button: make a new company on MyTess">Create a company</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            A company lets several people work together: a carrier's dispatchers bid for it and give its trips to its
            drivers; a shipper's staff post its loads. You can still use MyTess on your own.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
          <TextField
            id="company-name"
            name="name"
            autoComplete="organization"
            className="[&_input]:min-h-11"
            label={<Trans comment="Field label: the company's name">Company name</Trans>}
            error={errors.name}
          />
          <div className="grid gap-2">
            <Label htmlFor="company-kind">
              <Trans comment="Field label: carrier or shipper business">Kind of company</Trans>
            </Label>
            <NativeSelect
              id="company-kind"
              className="min-h-11"
              value={kind}
              onChange={(e) => setKind(e.target.value as TCompanyKind)}
              aria-invalid={!!errors.kind}
              aria-describedby={errors.kind ? "company-kind-error" : undefined}
            >
              <option value="carrier">{words.kind.carrier}</option>
              <option value="shipper">{words.kind.shipper}</option>
            </NativeSelect>
            <FieldError id="company-kind-error">{errors.kind}</FieldError>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="company-country">
              <Trans comment="Field label: the country the business is registered in">Registered in</Trans>
            </Label>
            <NativeSelect
              id="company-country"
              className="min-h-11"
              value={country}
              onChange={(e) => setCountry(e.target.value)}
              aria-invalid={!!errors.country}
              aria-describedby={errors.country ? "company-country-error" : undefined}
            >
              <option value="ET">{t({ message: "Ethiopia", comment: "Country name" })}</option>
              <option value="DJ">{t({ message: "Djibouti", comment: "Country name" })}</option>
              <option value="KE">{t({ message: "Kenya", comment: "Country name" })}</option>
              <option value="US">{t({ message: "United States", comment: "Country name" })}</option>
            </NativeSelect>
            <FieldError id="company-country-error">{errors.country}</FieldError>
          </div>
          <FieldError>{errors.form}</FieldError>
          <Button
            type="submit"
            className="min-h-11 sm:justify-self-start"
            disabled={create.isPending || !online}
            data-testid="create-company-submit"
          >
            {create.isPending ? (
              <Trans comment="Button while the company is being made">Creating…</Trans>
            ) : (
              <Trans comment="Card title and button: make a new company on MyTess">Create a company</Trans>
            )}
          </Button>
          {!online && (
            <p className="text-sm text-muted-foreground">
              <Trans>You are offline. Connect to make changes to your company.</Trans>
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
