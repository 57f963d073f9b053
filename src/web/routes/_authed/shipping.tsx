import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Calculator, Clock, Globe2, MapPinned, PackageSearch, ShieldCheck, Shuffle, Tag } from "lucide-react";
import { PageHeader } from "../../components/layout/page-header";
import { CarrierIcon } from "../../components/shipping/carrier-icon";
import { RateCalculator } from "../../components/shipping/rate-calculator";
import { TrackingPanel } from "../../components/shipping/tracking-panel";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { LoadError } from "../../components/ui/load-error";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { trpc } from "../../lib/trpc";

export const Route = createFileRoute("/_authed/shipping")({ component: ShippingPage });

function CarriersCard() {
  const { t } = useLingui();
  const carriers = useQuery(trpc.shipping.carriers.queryOptions(undefined, { staleTime: 60_000 }));
  return (
    <Card data-testid="carriers-card">
      <CardHeader>
        <CardTitle>
          <Trans comment="Shipping page card title: the parcel carriers MyTess can ask for prices">
            Available Carriers
          </Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-3">
        {carriers.isError && (
          <LoadError
            className="sm:col-span-3"
            title={<Trans>The carriers' status could not be loaded.</Trans>}
            error={carriers.error}
            onRetry={carriers.refetch}
          />
        )}
        {carriers.data?.map((c) => (
          <div key={c.id} className="flex items-center gap-3 rounded-md border p-3" data-testid={`carrier-${c.id}`}>
            <CarrierIcon carrier={c.id} />
            <div className="min-w-0 flex-1">
              <div className="font-medium">{c.name}</div>
              {/* Why a carrier is not configured, already in the reader's language. */}
              {c.reason && (
                <p className="text-xs text-muted-foreground" data-testid={`carrier-${c.id}-reason`}>
                  {c.reason}
                </p>
              )}
            </div>
            {c.state === "active" ? (
              <Badge variant="success">{t`Active`}</Badge>
            ) : c.state === "sandbox" ? (
              <Badge variant="warning">{t`Sandbox`}</Badge>
            ) : (
              <Badge variant="outline">{t`Not configured`}</Badge>
            )}
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

function ShippingPage() {
  const { t } = useLingui();
  const tiles = [
    {
      icon: Calculator,
      title: t({ message: "Rate Calculator", comment: "Shipping page feature title: calculator of parcel prices" }),
      text: t`Compare prices from three carriers at once.`,
    },
    {
      icon: PackageSearch,
      title: t({
        message: "Package Tracking",
        comment: "Shipping page tab and feature title: follow a parcel with its tracking number",
      }),
      text: t`Follow any FedEx, UPS or USPS package.`,
    },
    {
      icon: ShieldCheck,
      title: t({
        message: "Insured Shipping",
        comment: "Shipping page feature title: parcels sent with a declared, insured value",
      }),
      text: t`Declare a value for each package.`,
    },
    {
      icon: Globe2,
      title: t({ message: "International", comment: "Shipping page feature title: parcels to other countries" }),
      text: t`Quotes to other countries with FedEx and UPS.`,
    },
  ];
  const more = [
    {
      icon: Tag,
      title: t({ message: "Competitive rates", comment: "Shipping page feature title: parcel prices that compete" }),
      text: t`See every service side by side, cheapest first.`,
    },
    {
      icon: MapPinned,
      title: t({
        message: "Universal tracking",
        comment: "Shipping page feature title: one tracking box for FedEx, UPS and USPS",
      }),
      text: t`One box for every tracking number; the carrier is recognised for you.`,
    },
    {
      icon: ShieldCheck,
      title: t({ message: "Insurance", comment: "Shipping page feature title: declared value (insurance) of parcels" }),
      text: t`Declared values travel with your quote.`,
    },
    {
      icon: Clock,
      title: t({ message: "Fast processing", comment: "Shipping page feature title: carriers answer quickly" }),
      text: t`Carriers are asked at the same time, not one after another.`,
    },
    { icon: Globe2, title: t`International`, text: t`Ship from Addis Ababa to the world and back.` },
    {
      icon: Shuffle,
      title: t({
        message: "Flexible delivery",
        comment: "Shipping page feature title: change a parcel's delivery with the carrier",
      }),
      text: t`Change a delivery with the carrier in one click.`,
    },
  ];
  return (
    <div className="grid gap-6">
      <PageHeader
        title={<Trans>Package Delivery Services</Trans>}
        description={<Trans>Compare parcel rates and track packages across FedEx, UPS and USPS.</Trans>}
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {tiles.map((x) => (
          <Card key={x.title} className="p-4">
            <x.icon className="size-6 text-brand" />
            <div className="mt-2 font-semibold">{x.title}</div>
            <div className="text-sm text-muted-foreground">{x.text}</div>
          </Card>
        ))}
      </div>
      <CarriersCard />
      <Tabs defaultValue="calculator">
        <TabsList>
          <TabsTrigger value="calculator">
            <Trans comment="Shipping page tab: calculator of parcel prices">Shipping Calculator</Trans>
          </TabsTrigger>
          <TabsTrigger value="tracking">
            <Trans>Package Tracking</Trans>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="calculator">
          <RateCalculator />
        </TabsContent>
        <TabsContent value="tracking">
          <TrackingPanel />
        </TabsContent>
      </Tabs>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {more.map((x) => (
          <Card key={x.title}>
            <CardHeader>
              <x.icon className="size-5 text-brand" />
              <CardTitle>{x.title}</CardTitle>
              <CardDescription>{x.text}</CardDescription>
            </CardHeader>
          </Card>
        ))}
      </div>
    </div>
  );
}
