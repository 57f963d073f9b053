import { Trans } from "@lingui/react/macro";
import { createFileRoute, Link, redirect } from "@tanstack/react-router";
import { LayoutGrid, Package, Truck } from "lucide-react";
import { Button } from "../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../components/ui/card";

export const Route = createFileRoute("/")({
  beforeLoad: ({ context }) => {
    if (!context.me) throw redirect({ to: "/landing" });
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
        <Trans>Welcome back, {firstName}!</Trans>
      </h1>
      <p className="mt-1 text-muted-foreground">
        <Trans>Here is where your freight business stands today.</Trans>
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild>
          <Link to="/driver">
            <Truck />
            <Trans>Driver dashboard</Trans>
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/shipper">
            <Package />
            <Trans>Shipper dashboard</Trans>
          </Link>
        </Button>
      </div>
      <h2 className="mt-10 text-lg font-semibold">
        <Trans>Quick access</Trans>
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-3">
        <Link to="/loads" className="block">
          <Card className="h-full transition hover:shadow-md">
            <CardHeader>
              <LayoutGrid className="size-6 text-brand" />
              <CardTitle>
                <Trans>Load board</Trans>
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
                <Trans>Post a load</Trans>
              </CardTitle>
              <CardDescription>
                <Trans>Post freight and compare bids from drivers.</Trans>
              </CardDescription>
            </CardHeader>
          </Card>
        </Link>
      </div>
    </div>
  );
}
