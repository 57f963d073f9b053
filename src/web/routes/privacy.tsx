import { Trans } from "@lingui/react/macro";
import { createFileRoute, Link } from "@tanstack/react-router";
import { TextPage } from "../components/layout/legal-page";
import { loadAppMessages } from "../lib/i18n";

export const Route = createFileRoute("/privacy")({ beforeLoad: () => loadAppMessages(), component: PrivacyPage });

function PrivacyPage() {
  return (
    <TextPage
      title={<Trans comment="Footer link, page title: the privacy notice (what data MyTess keeps)">Privacy</Trans>}
      description={<Trans>What MyTess keeps about you, why, and who sees it. Last changed 22 November 2026.</Trans>}
      sections={[
        {
          heading: <Trans>What we keep</Trans>,
          body: (
            <Trans>
              Your account (name, email, a hash of your password, language and currency), the loads you post, your bids,
              messages and ratings, the parcel shipments you save, and the position a driver shares from the dashboard
              or during a trip.
            </Trans>
          ),
        },
        {
          heading: <Trans comment="Privacy page section heading: why MyTess keeps this data">Why</Trans>,
          body: (
            <Trans>
              To run the marketplace: to show drivers the loads near them, to show shippers the bids and the trip, and
              to keep accounts safe (failed sign-ins are counted with the address they came from for 15 minutes).
            </Trans>
          ),
        },
        {
          heading: <Trans>Who sees what</Trans>,
          body: (
            <Trans>
              Posted loads are visible to signed-in users. A load once awarded, its bids and its messages are seen only
              by its shipper and the driver concerned. A shipper sees how far a bidding driver is from the pickup, and
              the position of the driver running their load. We do not sell your data.
            </Trans>
          ),
        },
        {
          heading: <Trans>Cookies and your device</Trans>,
          body: (
            <Trans>
              A session cookie keeps you signed in and a language cookie remembers your language. The app keeps your
              currency, the last pages you saw and the changes you made offline on your device, and clears them when you
              sign out.
            </Trans>
          ),
        },
        {
          heading: (
            <Trans comment="Privacy page section heading: what the parcel carriers (FedEx, UPS, USPS) receive">
              Carriers
            </Trans>
          ),
          body: (
            <Trans>
              When you compare parcel rates or track a package, the addresses, package details or tracking number you
              enter are sent to FedEx, UPS or USPS to answer you.
            </Trans>
          ),
        },
        {
          heading: <Trans comment="Privacy page section heading: the user's rights over their data">Your rights</Trans>,
          body: (
            <Trans>
              You can see and correct your profile at any time. To get a copy of your data or have your account deleted,
              write to us through the{" "}
              <Link to="/contact" className="text-brand underline underline-offset-2">
                contact page
              </Link>
              ; we answer within 30 days.
            </Trans>
          ),
        },
      ]}
    />
  );
}
