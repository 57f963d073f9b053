import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowRight } from "lucide-react";
import { trpc } from "../../lib/trpc";
import { DriverBidFigures, DriverBidRow } from "../loads/driver-bid-row";
import { Amount } from "../money/amount";
import { Badge } from "../ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

type TDemo = {
  load: { title: string; pickupLocation: string; deliveryLocation: string };
  bids: {
    initials: string;
    rating: number;
    trips: number;
    distance: number | null;
    amount: number;
    currency: string;
    isClosest: boolean;
  }[];
};

// Shown only when no posted load has a bid yet, and labelled as an example.
const example = (title: string): TDemo => ({
  load: { title, pickupLocation: "Modjo, Ethiopia", deliveryLocation: "Hawassa, Ethiopia" },
  bids: [
    { initials: "AK", rating: 4.8, trips: 112, distance: 6, amount: 61000, currency: "ETB", isClosest: true },
    { initials: "TG", rating: 4.6, trips: 58, distance: 23, amount: 63500, currency: "ETB", isClosest: false },
    { initials: "MB", rating: 4.9, trips: 201, distance: 41, amount: 66000, currency: "ETB", isClosest: false },
  ],
});

/** Bids as a shipper receives them: real recent bids on a real load, drivers reduced to initials. */
export function ReceivedBids() {
  const { t } = useLingui();

  const demo = useQuery(trpc.platform.bidsDemo.queryOptions(undefined, { staleTime: 60_000 }));
  if (demo.isPending || demo.isError) return null;
  const isExample = demo.data === null;
  const d: TDemo =
    demo.data ??
    example(
      t({
        message: "Cement, 40 t",
        comment: "Landing page example load title: a cement load of 40 tonnes (t = tonnes)",
      }),
    );
  return (
    <section id="shippers-demo" className="mx-auto max-w-7xl px-4 py-10" data-testid="received-bids">
      <h2 className="text-2xl font-bold">
        <Trans>Bids as a shipper receives them</Trans>
      </h2>
      <p className="mt-1 text-muted-foreground">
        <Trans>Every bid shows the driver's rating, trips and distance to the pickup, in your currency.</Trans>
      </p>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
            {d.load.title}
            {isExample ? (
              <Badge variant="warning" data-testid="bids-example">
                <Trans comment="Badge on the landing page's bid list when it shows made-up example bids">Example</Trans>
              </Badge>
            ) : (
              <Badge variant="success">
                <Trans comment="Badge on the landing page's list of bids: price offers drivers are placing right now">
                  Live bids
                </Trans>
              </Badge>
            )}
          </CardTitle>
          <CardDescription className="flex flex-wrap items-center gap-1">
            {d.load.pickupLocation} <ArrowRight className="size-3" /> {d.load.deliveryLocation}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          {d.bids.map((b, i) => (
            <div
              key={i}
              className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3"
              data-testid="demo-bid"
            >
              <DriverBidRow initials={b.initials}>
                <DriverBidFigures bid={b} className="text-sm">
                  {b.isClosest && (
                    <Badge variant="success">
                      {t({ message: "Closest", comment: "Badge on the bid of the driver nearest to the pickup" })}
                    </Badge>
                  )}
                </DriverBidFigures>
              </DriverBidRow>
              <div className="font-bold" data-testid="demo-bid-amount">
                <Amount amount={b.amount} currency={b.currency} />
              </div>
            </div>
          ))}
        </CardContent>
      </Card>
    </section>
  );
}
