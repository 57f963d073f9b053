import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Banknote, Globe2, MapPin, Smartphone, Star, Truck } from "lucide-react";
import { lazy, Suspense } from "react";
import { SAMPLE_PLATFORM_STATS } from "../../shared/constants";
import { LandingBidPending } from "../components/landing/landing-bid-pending";
import { LoadSummaryCard } from "../components/loads/load-summary-card";
import { Amount } from "../components/money/amount";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { LoadError } from "../components/ui/load-error";
import { loginHref } from "../lib/auth";
import { usePreferences } from "../lib/preferences";
import { trpc } from "../lib/trpc";

export const Route = createFileRoute("/landing")({ component: LandingPage });

// The bid form and the received bids show data the page asks for as it opens; their code (the form, the date field,
// the bid rows) comes in beside that data instead of in the page's first load. A part whose code cannot be fetched
// shows nothing, as it does when its data cannot be.
const nothing = { default: () => null };
const LandingBid = lazy(() =>
  import("../components/landing/landing-bid").then(
    (m) => ({ default: m.LandingBid }),
    () => nothing,
  ),
);
const ReceivedBids = lazy(() =>
  import("../components/landing/received-bids").then(
    (m) => ({ default: m.ReceivedBids }),
    () => nothing,
  ),
);

function Stats() {
  const { t } = useLingui();
  const { formatNumber } = usePreferences();
  const stats = useQuery(trpc.platform.stats.queryOptions(undefined, { staleTime: 60_000 }));
  // The sample figures stand in only when the call fails.
  const s = stats.isError ? SAMPLE_PLATFORM_STATS : stats.data;
  // Rounded the way marketing pages show figures: "270+", "1.2K+", "$39.6K".
  const atLeast = (n: number) => {
    if (n < 10) return formatNumber(n);
    const step = n < 1000 ? 10 : 100;
    const floor = Math.floor(n / step) * step;
    const text =
      floor >= 1000 ? formatNumber(floor, { notation: "compact", maximumFractionDigits: 1 }) : formatNumber(floor);
    return floor < n ? `${text}+` : text;
  };
  const items = [
    {
      label: t({ message: "Loads posted", comment: "Landing page figure: number of loads posted on MyTess" }),
      value: s ? atLeast(s.totalLoads) : "…",
    },
    {
      label: t({ message: "Active drivers", comment: "Landing page figure: number of drivers active on MyTess" }),
      value: s ? atLeast(s.activeDrivers) : "…",
    },
    {
      label: t({
        message: "Completed deliveries",
        comment: "Landing page figure: number of loads delivered through MyTess",
      }),
      value: s ? atLeast(s.completedDeliveries) : "…",
    },
    {
      label: t({
        message: "Countries served",
        comment: "Landing page figure: number of countries where MyTess has users",
      }),
      value: s ? atLeast(s.countriesServed) : "…",
    },
    {
      label: t({
        message: "Average rating",
        comment: "Landing page figure: average star rating drivers and shippers give each other",
      }),
      value: s ? formatNumber(s.avgRating, { maximumFractionDigits: 1 }) : "…",
    },
    {
      label: t`Freight value delivered`,
      value: s ? <Amount amount={s.totalRevenue} currency="USD" compact /> : "…",
    },
  ];
  return (
    <section
      aria-label={t({
        message: "Platform figures",
        comment: "Screen-reader name of the landing page's row of figures",
      })}
      className="mx-auto grid max-w-7xl grid-cols-2 gap-4 px-4 py-10 md:grid-cols-3 lg:grid-cols-6"
      data-testid="platform-stats"
    >
      {items.map((i) => (
        <div key={i.label} className="rounded-xl border bg-white p-4 text-center">
          <div className="text-2xl font-bold text-brand">{i.value}</div>
          <div className="text-xs text-muted-foreground">{i.label}</div>
        </div>
      ))}
    </section>
  );
}

function SampleBoard() {
  const loads = useQuery(trpc.platform.sampleLoads.queryOptions({ limit: 6 }, { staleTime: 60_000 }));
  return (
    <section id="loadboard" className="mx-auto max-w-7xl px-4 py-10">
      <h2 className="text-2xl font-bold">
        <Trans>Live load board</Trans>
      </h2>
      <p className="mt-1 text-muted-foreground">
        <Trans>The newest loads posted on MyTess right now.</Trans>
      </p>
      <div className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {loads.isPending && (
          <p className="text-muted-foreground">
            <Trans>Loading loads...</Trans>
          </p>
        )}
        {loads.isError && (
          <LoadError
            title={<Trans>The load board could not be loaded. Please try again later.</Trans>}
            error={loads.error}
            onRetry={loads.refetch}
          />
        )}
        {loads.data?.length === 0 && (
          <p className="text-muted-foreground">
            <Trans>No loads are posted yet. Be the first shipper to post one.</Trans>
          </p>
        )}
        {loads.data?.map((l) => (
          <LoadSummaryCard
            key={l.id}
            load={l}
            action={
              <Button asChild size="sm" variant="outline">
                <a href={loginHref("/loads")}>
                  <Trans comment="Button for visitors on a load: sign in to offer a price (bid) on it">
                    Sign in to bid
                  </Trans>
                </a>
              </Button>
            }
          />
        ))}
      </div>
    </section>
  );
}

function LandingPage() {
  const { t } = useLingui();
  const { formatDistance } = usePreferences();
  const nearest = formatDistance(25, 0);
  const farthest = formatDistance(500, 0);
  const features = [
    {
      icon: MapPin,
      title: t`Loads near you`,
      text: t({
        message: `See loads by distance from where your truck is, within ${nearest} to ${farthest}.`,
        comment: "Landing feature text; {nearest} and {farthest} are distances with their unit (40 km, 805 km)",
      }),
    },
    {
      icon: Banknote,
      title: t({
        message: "Your currency",
        comment: "Landing page feature title: prices shown in the visitor's own currency",
      }),
      text: t`Budgets and bids shown in US dollars, euros or Ethiopian birr.`,
    },
    {
      icon: Truck,
      title: t({
        message: "Bid and win",
        comment: "Landing page step title for drivers: offer prices on loads and win them",
      }),
      text: t`Drivers bid in minutes; shippers compare offers and award the best.`,
    },
    {
      icon: Globe2,
      title: t({ message: "Three languages", comment: "Landing page feature title: MyTess works in three languages" }),
      text: t`Use MyTess in English, Amharic or Afaan Oromo.`,
    },
    {
      icon: Smartphone,
      title: t`Made for any phone`,
      text: t`Install it from the browser; it stays usable on a weak network.`,
    },
    { icon: Star, title: t`Ratings you can trust`, text: t`Drivers and shippers rate each other after every trip.` },
  ];
  return (
    <div>
      <section className="bg-gradient-to-br from-teal-700 to-teal-900 text-white">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 py-16 md:grid-cols-2 md:py-24">
          <div>
            <p className="text-sm font-semibold tracking-wide text-teal-200 uppercase">
              <Trans>Six months of premium free</Trans>
            </p>
            <h1 elementtiming="main-content" className="mt-3 text-4xl font-bold tracking-tight md:text-5xl">
              <Trans>Freight moves faster when drivers and shippers meet directly.</Trans>
            </h1>
            <p className="mt-4 text-lg text-teal-50">
              <Trans>
                Post a load, find a truck near it, agree a price and follow the trip, from Djibouti to Addis Ababa and
                beyond.
              </Trans>
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Button asChild size="lg" variant="inverse">
                <a href={loginHref("/driver", "driver", "register")}>
                  <Trans>Start earning today</Trans>
                </a>
              </Button>
              <Button asChild size="lg" variant="outlineInverse">
                <a href={loginHref("/shipper", "shipper", "register")}>
                  <Trans>Ship freight now</Trans>
                </a>
              </Button>
            </div>
          </div>
          <div className="md:pl-6">
            <Suspense fallback={<LandingBidPending />}>
              <LandingBid />
            </Suspense>
          </div>
        </div>
      </section>
      <Stats />
      <Suspense fallback={null}>
        <ReceivedBids />
      </Suspense>
      <SampleBoard />
      <section className="mx-auto grid max-w-7xl gap-6 px-4 py-10 md:grid-cols-2">
        <Card id="drivers">
          <CardHeader>
            <CardTitle className="text-xl">
              <Trans>For drivers</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>Find loads near your truck, bid with one tap and get rated for good work.</Trans>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <a href={loginHref("/driver", "driver")}>
                <Trans>Join as a driver</Trans>
              </a>
            </Button>
          </CardContent>
        </Card>
        <Card id="shippers">
          <CardHeader>
            <CardTitle className="text-xl">
              <Trans>For shippers</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>Post a load in a minute, compare bids from rated drivers and follow the delivery.</Trans>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <a href={loginHref("/shipper", "shipper")}>
                <Trans>Join as a shipper</Trans>
              </a>
            </Button>
          </CardContent>
        </Card>
      </section>
      <section id="about" className="mx-auto max-w-7xl px-4 py-10">
        <h2 className="text-2xl font-bold">
          <Trans comment="Landing page section heading: reasons to use MyTess">Why MyTess</Trans>
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((f) => (
            <Card key={f.title}>
              <CardHeader>
                <f.icon className="size-6 text-brand" />
                <CardTitle>{f.title}</CardTitle>
                <CardDescription>{f.text}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
