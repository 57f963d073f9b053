import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Calculator, ShieldCheck, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { dateTimeFormat, numberFormat } from "../../../shared/intl";
import type { TRateOption } from "../../../shared/schemas/shipping";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import {
  AddressCard,
  AddressLine,
  addressComplete,
  addressInput,
  EMPTY_ADDRESS,
  RequiredNote,
  type TAddressForm,
} from "./address-card";
import { CarrierIcon, carrierName } from "./carrier-icon";
import { newPackage, PackagesCard, packageInput, type TPackageForm } from "./packages-card";

// Cost in en-US currency format with the result's currency; dates en-US with short month and time.
const money = (amount: number, currency: string) =>
  numberFormat("en-US", { style: "currency", currency: currency || "USD" }).format(amount);
const shortDate = (d: Date) =>
  dateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }).format(d);

type TCarrierChoice = "all" | "fedex" | "ups" | "usps";

export function RateCalculator() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [shipper, setShipper] = useState<TAddressForm>(EMPTY_ADDRESS);
  const [recipient, setRecipient] = useState<TAddressForm>(EMPTY_ADDRESS);
  const [packages, setPackages] = useState<TPackageForm[]>([newPackage()]);
  const [carrier, setCarrier] = useState<TCarrierChoice>("all");
  const [asked, setAsked] = useState<{
    shipper: TAddressForm;
    recipient: TAddressForm;
    packages: TPackageForm[];
  } | null>(null);
  const rates = useMutation(
    trpc.shipping.rates.mutationOptions({
      onSuccess: (r) => {
        const count = r.rates.length;
        toast({
          title: t({ message: "Rates Calculated", comment: "Notice title after parcel prices were found" }),
          description: t`Found ${count} shipping options.`,
          variant: "success",
        });
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`Failed to calculate shipping rates. Please try again.`,
          variant: "destructive",
        }),
    }),
  );
  const shipments = useQuery(trpc.shipping.shipments.queryOptions(undefined, { staleTime: 30_000 }));
  const save = useMutation(
    trpc.shipping.saveShipment.mutationOptions({
      onSuccess: async (s) => {
        const service = s.serviceName;
        toast({
          title: t({ message: "Service selected", comment: "Notice title after a parcel service was chosen" }),
          description: t`${service} is saved to your shipments.`,
          variant: "success",
        });
        await queryClient.invalidateQueries(trpc.shipping.shipments.queryFilter());
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`Failed to save the shipment. Please try again.`,
          variant: "destructive",
        }),
    }),
  );
  const remove = useMutation(
    trpc.shipping.deleteShipment.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.shipping.shipments.queryFilter()),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!addressComplete(shipper)) {
      toast({
        title: t({
          message: "Missing Information",
          comment: "Notice title: the parcel form lacks addresses or packages",
        }),
        description: t`Please fill in all shipper address fields.`,
        variant: "destructive",
      });
      return;
    }
    if (!addressComplete(recipient)) {
      toast({
        title: t`Missing Information`,
        description: t`Please fill in all recipient address fields.`,
        variant: "destructive",
      });
      return;
    }
    setAsked({ shipper, recipient, packages });
    rates.mutate({
      shipper: addressInput(shipper),
      recipient: addressInput(recipient),
      packages: packages.map(packageInput),
      ...(carrier === "all" ? {} : { carrier }),
    });
  };

  const select = (quote: TRateOption) => {
    if (!asked) return;
    save.mutate({
      quote,
      shipper: addressInput(asked.shipper),
      recipient: addressInput(asked.recipient),
      packages: asked.packages.map(packageInput),
    });
  };

  return (
    <div className="grid gap-4">
      <form className="grid gap-4" onSubmit={submit} noValidate data-testid="rate-form">
        <div className="grid gap-4 lg:grid-cols-2">
          <AddressCard id="from" title={<Trans>From Address (Shipper)</Trans>} value={shipper} onChange={setShipper} />
          <AddressCard
            id="to"
            title={<Trans>To Address (Recipient)</Trans>}
            value={recipient}
            onChange={setRecipient}
          />
        </div>
        <RequiredNote />
        <PackagesCard value={packages} onChange={setPackages} />
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="carrier-pref">
              <Trans comment="Label of the parcel carrier choice in the rate calculator">Carrier Preference</Trans>
            </Label>
            <NativeSelect
              id="carrier-pref"
              className="w-48"
              value={carrier}
              onChange={(e) => setCarrier(e.target.value as TCarrierChoice)}
            >
              <option value="all">
                {t({
                  message: "All Carriers",
                  comment: "Parcel calculator choice: ask every carrier (FedEx, UPS and USPS)",
                })}
              </option>
              <option value="fedex">
                {t({ message: "FedEx Only", comment: "Parcel calculator choice: ask FedEx only" })}
              </option>
              <option value="ups">
                {t({ message: "UPS Only", comment: "Parcel calculator choice: ask UPS only" })}
              </option>
              <option value="usps">
                {t({ message: "USPS Only", comment: "Parcel calculator choice: ask USPS only" })}
              </option>
            </NativeSelect>
          </div>
          <Button type="submit" disabled={rates.isPending} data-testid="get-rates">
            <Calculator />
            {rates.isPending ? (
              <Trans comment="Parcel calculator button while prices are being asked">Calculating...</Trans>
            ) : (
              <Trans>Get Shipping Rates</Trans>
            )}
          </Button>
        </div>
      </form>

      {rates.data && (
        <Card data-testid="rate-results">
          <CardHeader>
            <CardTitle>
              <Trans>Available Shipping Options</Trans>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            {rates.data.errors.map((e) => (
              <p
                key={e.carrier}
                className="rounded-md bg-yellow-50 p-2 text-sm text-yellow-900"
                data-testid="carrier-error"
              >
                {e.message}
              </p>
            ))}
            {rates.data.rates.length === 0 && (
              <p className="text-sm text-muted-foreground">
                <Trans>No shipping rates available for the selected criteria.</Trans>
              </p>
            )}
            {rates.data.rates.map((r) => {
              const days = r.deliveryDays;
              const by = days != null ? shortDate(new Date(Date.now() + days * 86_400_000)) : null;
              const name = carrierName(r.carrier);
              const transit = r.transitTime;
              return (
                <div
                  key={`${r.carrier}-${r.serviceCode}`}
                  className="flex flex-wrap items-center gap-3 rounded-lg border p-3"
                  data-testid="rate-option"
                >
                  <CarrierIcon carrier={r.carrier} />
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2 font-medium">
                      {r.serviceName}
                      {r.guaranteedDelivery && (
                        <Badge variant="success">
                          <ShieldCheck className="size-3" />
                          <Trans comment="Parcel rate badge: the carrier guarantees the delivery date">
                            Guaranteed
                          </Trans>
                        </Badge>
                      )}
                    </div>
                    <div className="text-sm text-muted-foreground">
                      {name} · {transit}
                    </div>
                    {by && (
                      <div className="text-xs text-muted-foreground">
                        <Trans comment="Parcel rates: delivered by the date {by}">Delivery by {by}</Trans>
                      </div>
                    )}
                  </div>
                  <div className="text-right">
                    <div className="text-lg font-bold" data-testid="rate-cost">
                      {money(r.totalCost, r.currency)}
                    </div>
                    {days != null && (
                      <div className="text-xs text-muted-foreground">
                        {days === 1 ? (
                          <Trans comment="Parcel rates: the delivery time, one day">1 day</Trans>
                        ) : (
                          <Trans comment="Parcel rates: the delivery time, {days} days">{days} days</Trans>
                        )}
                      </div>
                    )}
                  </div>
                  <Button size="sm" variant="outline" disabled={save.isPending} onClick={() => select(r)}>
                    <Trans>Select This Service</Trans>
                  </Button>
                </div>
              );
            })}
          </CardContent>
        </Card>
      )}

      <Card data-testid="my-shipments">
        <CardHeader>
          <CardTitle>
            <Trans comment="Shipping page card title: parcels the user saved from the calculator (not freight loads)">
              My shipments
            </Trans>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-2">
          {shipments.data?.length === 0 && (
            <p className="text-sm text-muted-foreground">
              <Trans>Services you select are kept here with their addresses.</Trans>
            </p>
          )}
          {shipments.data?.map((s) => (
            <div
              key={s.id}
              className="flex flex-wrap items-center gap-3 rounded-md border p-3 text-sm"
              data-testid="shipment-row"
            >
              <CarrierIcon carrier={s.carrier} className="size-8" />
              <div className="min-w-0 flex-1">
                <div className="font-medium">{s.serviceName}</div>
                <div className="text-muted-foreground">
                  <AddressLine a={s.shipper} /> → <AddressLine a={s.recipient} />
                </div>
              </div>
              <div className="font-semibold">{money(s.totalCost, s.currency)}</div>
              <Button
                size="icon"
                variant="ghost"
                aria-label={t({
                  message: "Remove shipment",
                  comment: "Screen-reader label of the button that removes a saved parcel (shipment) from the list",
                })}
                onClick={() => remove.mutate({ id: s.id })}
              >
                <Trash2 />
              </Button>
            </div>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}
