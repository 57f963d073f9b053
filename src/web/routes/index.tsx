import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link, redirect } from "@tanstack/react-router";
import { Banknote, CheckCircle2, Gavel, LayoutGrid, Package, PiggyBank, Star, Truck } from "lucide-react";
import { ActivityFeed } from "../components/layout/activity-feed";
import { StatCard } from "../components/layout/stat-card";
import { Amount } from "../components/money/amount";
import { RatesNote } from "../components/money/rates-note";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { LoadError } from "../components/ui/load-error";
import { loadAppMessages } from "../lib/i18n";
import { usePreferences } from "../lib/preferences";
import { trpc } from "../lib/trpc";

export const Route = createFileRoute("/")({
  beforeLoad: async ({ context }) => {
    if (!context.me) throw redirect({ to: "/landing" });
    await loadAppMessages();
    return { me: context.me };
  },
  component: HomePage,
});

function HomePage() {
  const { me } = Route.useRouteContext();
  const firstName = me.firstName;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold" data-testid="home-greeting">
        <Trans comment="Home page heading greeting the signed-in user by first name">Welcome back, {firstName}!</Trans>
      </h1>
      <p className="mt-1 text-muted-foreground">
        <Trans>Here is where your freight business stands today.</Trans>
      </p>
      <QuickStats />
      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild>
          <Link to="/driver">
            <Truck />
            <Trans comment="Footer link and page title: the driver's home page (dashboard)">Driver dashboard</Trans>
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/shipper">
            <Package />
            <Trans comment="Footer link and page title: the shipper's home page (dashboard)">Shipper dashboard</Trans>
          </Link>
        </Button>
      </div>
      <h2 className="mt-10 text-lg font-semibold">
        <Trans comment="Home page heading above links to the main pages">Quick access</Trans>
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-3">
        <Link to="/loads" className="block">
          <Card className="h-full transition hover:shadow-md">
            <CardHeader>
              <LayoutGrid className="size-6 text-brand" />
              <CardTitle>
                <Trans comment="Footer/menu link and card title: the board that lists all posted loads (freight offers)">
                  Load board
                </Trans>
              </CardTitle>
              <CardDescription>
                <Trans>Browse posted loads by distance, rate and date.</Trans>
              </CardDescription>
            </CardHeader>
          </Card>
        </Link>
        <Link to="/driver" className="block">
          <Card className="h-full transition hover:shadow-md">
            <CardHeader>
              <Truck className="size-6 text-brand" />
              <CardTitle>
                <Trans>Find loads near me</Trans>
              </CardTitle>
              <CardDescription>
                <Trans>Share your location and bid on loads close by.</Trans>
              </CardDescription>
            </CardHeader>
          </Card>
        </Link>
        <Link to="/shipper" className="block">
          <Card className="h-full transition hover:shadow-md">
            <CardHeader>
              <Package className="size-6 text-brand" />
              <CardTitle>
                <Trans comment="Button: publish a new load for drivers to bid on">Post a load</Trans>
              </CardTitle>
              <CardDescription>
                <Trans>Post freight and compare bids from drivers.</Trans>
              </CardDescription>
            </CardHeader>
          </Card>
        </Link>
      </div>
      <Card className="mt-10">
        <CardHeader>
          <CardTitle>
            <Trans comment="Home page card title: recent events on the user's loads and bids">Recent activity</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <RecentActivity />
        </CardContent>
      </Card>
    </div>
  );
}

function useHome() {
  return useQuery(trpc.dashboard.home.queryOptions(undefined, { staleTime: 15_000, refetchOnMount: "always" }));
}

function RecentActivity() {
  const home = useHome();
  if (home.isPending)
    return (
      <p className="text-sm text-muted-foreground">
        <Trans>Loading...</Trans>
      </p>
    );
  if (home.isError)
    return (
      <LoadError title={<Trans>Your activity could not be loaded.</Trans>} error={home.error} onRetry={home.refetch} />
    );
  return <ActivityFeed events={home.data.activity} />;
}

function QuickStats() {
  const { formatNumber } = usePreferences();
  const home = useHome().data;
  if (!home) return null;
  if (home.driver) {
    const d = home.driver;
    return (
      <div className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="home-stats">
        <StatCard
          icon={Star}
          label={<Trans>Rating</Trans>}
          value={formatNumber(d.rating, { maximumFractionDigits: 1 })}
        />
        <StatCard icon={Truck} label={<Trans>Total trips</Trans>} value={formatNumber(d.totalTrips)} />
        <StatCard
          icon={Banknote}
          label={<Trans>This month's earnings</Trans>}
          value={<Amount amount={d.monthlyEarnings.amount} currency={d.monthlyEarnings.currency} />}
          hint={<RatesNote />}
        />
        <StatCard icon={Gavel} label={<Trans>Active bids</Trans>} value={formatNumber(d.activeBids)} />
      </div>
    );
  }
  if (home.shipper) {
    const s = home.shipper;
    return (
      <div className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="home-stats">
        <StatCard icon={Package} label={<Trans>Active loads</Trans>} value={formatNumber(s.active)} />
        <StatCard icon={Gavel} label={<Trans>Total bids</Trans>} value={formatNumber(s.totalBids)} />
        <StatCard
          icon={PiggyBank}
          label={<Trans>Average savings</Trans>}
          value={
            s.avgSavings == null ? "—" : formatNumber(s.avgSavings, { style: "percent", maximumFractionDigits: 1 })
          }
        />
        <StatCard icon={CheckCircle2} label={<Trans>Completed</Trans>} value={formatNumber(s.completed)} />
      </div>
    );
  }
  return null;
}
