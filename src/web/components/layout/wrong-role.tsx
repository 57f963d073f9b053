import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { Button } from "../ui/button";
import { Card } from "../ui/card";

/** A dashboard opened by the other kind of account: say so and offer the right one. */
export function WrongRole({ dashboardFor }: { dashboardFor: "driver" | "shipper" }) {
  return (
    <Card className="p-6" data-testid="wrong-role">
      <p>
        {dashboardFor === "driver" ? (
          <Trans>This dashboard is for driver accounts. Your account is a shipper account.</Trans>
        ) : (
          <Trans>This dashboard is for shipper accounts. Your account is a driver account.</Trans>
        )}
      </p>
      <Button asChild className="mt-3">
        {dashboardFor === "driver" ? (
          <Link to="/shipper">
            <Trans>Go to the shipper dashboard</Trans>
          </Link>
        ) : (
          <Link to="/driver">
            <Trans>Go to the driver dashboard</Trans>
          </Link>
        )}
      </Button>
    </Card>
  );
}
