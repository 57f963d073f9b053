import { Trans } from "@lingui/react/macro";
import { Card, CardContent } from "../ui/card";

/** The landing page's bid card while its load (or the form's code) is on the way. */
export function LandingBidPending() {
  return (
    <Card className="bg-white/95 text-slate-900">
      <CardContent className="p-6 text-sm text-muted-foreground">
        <Trans comment="Shown while the list of loads is fetched from the server (fetching data, not putting cargo on a truck)">
          Loading loads...
        </Trans>
      </CardContent>
    </Card>
  );
}
