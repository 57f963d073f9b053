import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, Clock, ExternalLink, HelpCircle, Search, Truck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { dateTimeFormat } from "../../../shared/intl";
import type { TPlaceRef, TTrackingResult } from "../../../shared/schemas/shipping";
import { toast } from "../../lib/toast";
import { errorInfo, trpcClient } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Input, Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { CarrierIcon, carrierName } from "./carrier-icon";

const when = (iso: string) =>
  dateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(new Date(iso));
const place = (p?: TPlaceRef | null) =>
  p ? [[p.city, p.state].filter(Boolean).join(", "), p.country].filter(Boolean).join(" ") : "";

/** The carrier's own tracking page, where delivery instructions, a new address or a delivery date are arranged. */
const carrierPage = (carrier: string, n: string) =>
  ({
    fedex: `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(n)}`,
    ups: `https://www.ups.com/track?tracknum=${encodeURIComponent(n)}`,
    usps: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(n)}`,
  })[carrier];

function StatusBadge({ status }: { status: TTrackingResult["status"] }) {
  if (status === "delivered")
    return (
      <Badge variant="success" data-testid="tracking-status">
        <CheckCircle2 className="size-3" />
        <Trans>Delivered</Trans>
      </Badge>
    );
  if (status === "in_transit")
    return (
      <Badge variant="warning" data-testid="tracking-status">
        <Truck className="size-3" />
        <Trans comment="Parcel tracking status badge: the parcel is on its way">In Transit</Trans>
      </Badge>
    );
  if (status === "exception")
    return (
      <Badge variant="destructive" data-testid="tracking-status">
        <AlertTriangle className="size-3" />
        <Trans comment="Parcel tracking status badge: a problem stopped the delivery (carrier exception)">
          Exception
        </Trans>
      </Badge>
    );
  if (status === "pending")
    return (
      <Badge variant="secondary" data-testid="tracking-status">
        <Clock className="size-3" />
        <Trans>Pending</Trans>
      </Badge>
    );
  return (
    <Badge variant="outline" data-testid="tracking-status">
      <HelpCircle className="size-3" />
      <Trans comment="Parcel tracking: the status or place is not known">Unknown</Trans>
    </Badge>
  );
}

export function TrackingPanel() {
  const { t } = useLingui();
  const [number, setNumber] = useState("");
  const [carrier, setCarrier] = useState<"auto" | "fedex" | "ups" | "usps">("auto");
  const [result, setResult] = useState<TTrackingResult | null>(null);
  const track = useMutation({
    mutationFn: (input: { trackingNumber: string; carrier?: "fedex" | "ups" | "usps" }) =>
      trpcClient.shipping.track.query(input),
    onSuccess: ({ tracking }) => {
      setResult(tracking);
      const n = tracking.trackingNumber;
      toast({
        title: t({ message: "Package Found", comment: "Notice title after tracking found the parcel" }),
        description: t`Tracking information retrieved for ${n}`,
        variant: "success",
      });
    },
    onError: (err) => {
      setResult(null);
      const { code } = errorInfo(err);
      // A number in no carrier's format, a number the carrier does not know, and a carrier that did not answer are
      // three different things to do next.
      const description =
        code === "BAD_REQUEST"
          ? t`This is not a FedEx, UPS or USPS tracking number format. Check the number and try again.`
          : code === "NOT_FOUND"
            ? t`Could not find tracking information. Please check the tracking number and try again.`
            : t`The carrier could not be reached just now. Please try again in a moment.`;
      toast({
        title: t({ message: "Tracking Failed", comment: "Notice title: parcel tracking failed" }),
        description,
        variant: "destructive",
      });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!number.trim()) {
      toast({ title: t`Missing Information`, description: t`Please enter a tracking number.`, variant: "destructive" });
      return;
    }
    track.mutate({ trackingNumber: number.trim(), ...(carrier === "auto" ? {} : { carrier }) });
  };
  const r = result;
  const page = r ? carrierPage(r.carrier, r.trackingNumber) : undefined;
  return (
    <div className="grid gap-4">
      <Card>
        <CardContent className="pt-5">
          <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate data-testid="track-form">
            <div className="grid min-w-64 flex-1 gap-1.5">
              <Label htmlFor="tracking-number">
                <Trans comment="Label of the parcel tracking number field">Tracking number</Trans>
              </Label>
              <Input
                id="tracking-number"
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                placeholder={t`Enter a tracking number`}
                autoComplete="off"
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="tracking-carrier">
                <Trans comment="Label of the parcel carrier choice (FedEx, UPS, USPS) in tracking">Carrier</Trans>
              </Label>
              <NativeSelect
                id="tracking-carrier"
                className="w-40"
                value={carrier}
                onChange={(e) => setCarrier(e.target.value as typeof carrier)}
              >
                <option value="auto">
                  {t({
                    message: "Auto-detect",
                    comment: "Parcel tracking carrier choice: find the carrier from the tracking number's format",
                  })}
                </option>
                <option value="fedex">FedEx</option>
                <option value="ups">UPS</option>
                <option value="usps">USPS</option>
              </NativeSelect>
            </div>
            <Button type="submit" disabled={track.isPending} data-testid="track-button">
              <Search />
              {track.isPending ? (
                <Trans comment="Track Package button while tracking">Tracking...</Trans>
              ) : (
                <Trans comment="Button: look up a parcel by its tracking number">Track Package</Trans>
              )}
            </Button>
          </form>
        </CardContent>
      </Card>

      {r && (
        <Card data-testid="tracking-result">
          <CardHeader>
            <div className="flex flex-wrap items-center gap-3">
              <CarrierIcon carrier={r.carrier} />
              <div className="flex-1">
                <CardTitle className="font-mono">{r.trackingNumber}</CardTitle>
                <div className="text-sm text-muted-foreground">
                  {carrierName(r.carrier)}
                  {r.service ? ` · ${r.service}` : ""}
                </div>
              </div>
              <StatusBadge status={r.status} />
            </div>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid gap-2 text-sm sm:grid-cols-2">
              <div>
                <span className="font-medium">
                  {t({
                    message: "Current location",
                    comment: "Parcel tracking label and driver dashboard card: where the parcel or the driver is now",
                  })}
                  :{" "}
                </span>
                <span data-testid="current-location">{place(r.currentLocation) || t`Unknown`}</span>
              </div>
              <div data-testid="delivery-date">
                {r.actualDelivery ? (
                  <>
                    <span className="font-medium">{t`Delivered`}: </span>
                    {when(r.actualDelivery)}
                  </>
                ) : r.estimatedDelivery ? (
                  <>
                    <span className="font-medium">
                      {t({
                        message: "Estimated",
                        comment: "Parcel tracking label: the date the carrier expects to deliver",
                      })}
                      :{" "}
                    </span>
                    {when(r.estimatedDelivery)}
                  </>
                ) : (
                  <>
                    <span className="font-medium">{t`Delivery`}: </span>
                    {t({
                      message: "Not available",
                      comment:
                        "Badge: the driver is not free to take loads; in parcel tracking, no delivery date given",
                    })}
                  </>
                )}
              </div>
            </div>
            <div>
              <h3 className="mb-2 font-semibold">
                <Trans comment="Parcel tracking heading: the parcel's past scans">Tracking history</Trans>
              </h3>
              {r.events.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  <Trans>No tracking events available yet.</Trans>
                </p>
              ) : (
                <ol className="grid gap-2 border-l-2 pl-4" data-testid="tracking-events">
                  {r.events.map((e, i) => (
                    <li
                      key={`${e.date}-${i}`}
                      className={cn("relative text-sm", i === 0 && "font-semibold text-brand")}
                      data-latest={i === 0 || undefined}
                    >
                      <span
                        className={cn(
                          "absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full",
                          i === 0 ? "bg-brand" : "bg-slate-300",
                        )}
                      />
                      <div>{e.description}</div>
                      <div className="text-xs font-normal text-muted-foreground">
                        {when(e.date)}
                        {place(e.location) ? ` · ${place(e.location)}` : ""}
                      </div>
                    </li>
                  ))}
                </ol>
              )}
            </div>
            {page && (
              <div className="flex flex-wrap gap-2">
                {[
                  t({
                    message: "Delivery Instructions",
                    comment:
                      "Parcel tracking button: give the carrier instructions for the delivery (opens the carrier's page)",
                  }),
                  t`Change Delivery Address`,
                  t({
                    message: "Schedule Delivery",
                    comment:
                      "Parcel tracking button: choose a delivery time with the carrier (opens the carrier's page)",
                  }),
                ].map((label) => (
                  <Button key={label} asChild size="sm" variant="outline">
                    <a href={page} target="_blank" rel="noopener noreferrer">
                      <ExternalLink />
                      {label}
                    </a>
                  </Button>
                ))}
              </div>
            )}
            <p className="text-xs text-muted-foreground">
              <Trans>
                Delivery changes are made with the carrier: these buttons open the carrier's own page for this package.
              </Trans>
            </p>
          </CardContent>
        </Card>
      )}

      <Card data-testid="format-reference">
        <CardHeader>
          <CardTitle>
            <Trans>Tracking number formats</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm sm:grid-cols-3">
          <div>
            <div className="font-semibold">FedEx</div>
            <div className="text-muted-foreground">
              <Trans>12, 15, 20 or 22 digits (22 digits start with 96)</Trans>
            </div>
          </div>
          <div>
            <div className="font-semibold">UPS</div>
            <div className="text-muted-foreground">
              <Trans>1Z followed by 16 letters and digits</Trans>
            </div>
          </div>
          <div>
            <div className="font-semibold">USPS</div>
            <div className="text-muted-foreground">
              <Trans>20 to 22 digits, or 13 characters like EA123456785US</Trans>
            </div>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
