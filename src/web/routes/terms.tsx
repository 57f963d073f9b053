import { Trans } from "@lingui/react/macro";
import { createFileRoute, Link } from "@tanstack/react-router";
import { TextPage } from "../components/layout/legal-page";
import { loadAppMessages } from "../lib/i18n";

export const Route = createFileRoute("/terms")({ beforeLoad: () => loadAppMessages(), component: TermsPage });

function TermsPage() {
  return (
    <TextPage
      title={<Trans>Terms of use</Trans>}
      description={<Trans>The rules for using MyTess. Last changed 22 November 2026.</Trans>}
      sections={[
        {
          heading: <Trans>Who we are</Trans>,
          body: (
            <Trans>
              MyTess runs an online marketplace where shippers post loads and drivers bid on them. MyTess is not a party
              to the transport: the agreement on a load is between its shipper and the driver whose bid was accepted.
            </Trans>
          ),
        },
        {
          heading: <Trans comment="Terms page section heading: the user's account and duties">Your account</Trans>,
          body: (
            <Trans>
              Give true information, keep your password to yourself and tell us if someone else uses your account. You
              are responsible for what is done with it.
            </Trans>
          ),
        },
        {
          heading: <Trans>Loads and bids</Trans>,
          body: (
            <Trans>
              Shippers describe their loads truthfully: goods, weight, places and dates. Drivers hold the licences and
              insurance required where they drive. An accepted bid is a commitment both sides are expected to keep; a
              load already assigned is cancelled only with a reason the driver sees.
            </Trans>
          ),
        },
        {
          heading: <Trans comment="Terms page section heading: rules of behaviour">Conduct</Trans>,
          body: (
            <Trans>
              No illegal goods, no fraud, no false ratings and no harassment in messages. We may suspend an account that
              breaks these rules.
            </Trans>
          ),
        },
        {
          heading: <Trans comment="Name of the paid plan (subscription page, terms section heading)">Premium</Trans>,
          body: (
            <Trans>
              New accounts get six months of premium free. After that premium costs $29 a month, can be cancelled at any
              time, and comes with a 30-day money-back guarantee.
            </Trans>
          ),
        },
        {
          heading: <Trans comment="Terms page section heading: who is responsible for what">Liability</Trans>,
          body: (
            <Trans>
              MyTess is provided as it is. Loss of or damage to goods in transport is a matter between the shipper, the
              driver and their insurers.
            </Trans>
          ),
        },
        {
          heading: <Trans>Changes and contact</Trans>,
          body: (
            <Trans>
              We announce changes to these terms in the app before they apply. Questions: write to us through the{" "}
              <Link to="/contact" className="text-brand underline underline-offset-2">
                contact page
              </Link>
              .
            </Trans>
          ),
        },
      ]}
    />
  );
}
