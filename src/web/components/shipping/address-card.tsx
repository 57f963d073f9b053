import { Trans, useLingui } from "@lingui/react/macro";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Input, Label } from "../ui/input";

export type TAddressForm = {
  name: string;
  company: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  postalCode: string;
  countryCode: string;
  phone: string;
};
export const EMPTY_ADDRESS: TAddressForm = {
  name: "",
  company: "",
  street1: "",
  street2: "",
  city: "",
  state: "",
  postalCode: "",
  countryCode: "US",
  phone: "",
};

export function AddressCard({
  id,
  title,
  value,
  onChange,
}: {
  id: string;
  title: React.ReactNode;
  value: TAddressForm;
  onChange: (v: TAddressForm) => void;
}) {
  const { t } = useLingui();
  const field = (
    k: keyof TAddressForm,
    label: string,
    opts: { required?: boolean; maxLength?: number; autoComplete?: string; className?: string } = {},
  ) => (
    <div className={`grid gap-1.5 ${opts.className ?? ""}`}>
      <Label htmlFor={`${id}-${k}`}>
        {label}
        {opts.required && <span aria-hidden="true"> *</span>}
      </Label>
      <Input
        id={`${id}-${k}`}
        value={value[k]}
        maxLength={opts.maxLength}
        autoComplete={opts.autoComplete}
        onChange={(e) =>
          onChange({
            ...value,
            [k]: k === "state" || k === "countryCode" ? e.target.value.toUpperCase() : e.target.value,
          })
        }
      />
    </div>
  );
  return (
    <Card data-testid={`${id}-card`}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2">
        {field(
          "name",
          t({ message: "Contact name", comment: "Parcel address field: the name of the person to contact" }),
          { required: true, autoComplete: "name" },
        )}
        {field(
          "company",
          t({ message: "Company (optional)", comment: "Parcel address field: the company name, may stay empty" }),
          { autoComplete: "organization" },
        )}
        {field("street1", t({ message: "Street address", comment: "Parcel address field: street and house number" }), {
          required: true,
          autoComplete: "address-line1",
          className: "sm:col-span-2",
        })}
        {field("street2", t`Apartment, suite (optional)`, {
          autoComplete: "address-line2",
          className: "sm:col-span-2",
        })}
        {field("city", t`City`, { required: true, autoComplete: "address-level2" })}
        {field("state", t({ message: "State", comment: "Parcel address field: the US state (two letters)" }), {
          required: true,
          maxLength: 2,
          autoComplete: "address-level1",
        })}
        {field("postalCode", t({ message: "Postal code", comment: "Parcel address field: postal (ZIP) code" }), {
          required: true,
          autoComplete: "postal-code",
        })}
        {field(
          "countryCode",
          t({ message: "Country code", comment: "Parcel address field: two-letter country code (US, ET)" }),
          { maxLength: 2, autoComplete: "country" },
        )}
        {field(
          "phone",
          t({ message: "Phone (optional)", comment: "Parcel address field: phone number, may stay empty" }),
          { autoComplete: "tel", className: "sm:col-span-2" },
        )}
      </CardContent>
    </Card>
  );
}

/** The address as the API takes it: blanks left out. */
export const addressInput = (a: TAddressForm) => ({
  name: a.name.trim() || undefined,
  company: a.company.trim() || undefined,
  street1: a.street1.trim(),
  street2: a.street2.trim() || undefined,
  city: a.city.trim(),
  state: a.state.trim(),
  postalCode: a.postalCode.trim(),
  countryCode: a.countryCode.trim() || "US",
  phone: a.phone.trim() || undefined,
});

export const addressComplete = (a: TAddressForm) =>
  Boolean(a.street1.trim() && a.city.trim() && a.state.trim() && a.postalCode.trim());

export function AddressLine({ a }: { a: { city: string; state: string; postalCode: string; countryCode?: string } }) {
  return (
    <span>
      {a.city}, {a.state} {a.postalCode}
      {a.countryCode && a.countryCode !== "US" ? ` ${a.countryCode}` : ""}
    </span>
  );
}

export function RequiredNote() {
  return (
    <p className="text-xs text-muted-foreground">
      <Trans comment="Parcel address form: fields marked * must be filled">* Required</Trans>
    </p>
  );
}
