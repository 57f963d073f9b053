import { Trans, useLingui } from "@lingui/react/macro";
import { createFileRoute, Link } from "@tanstack/react-router";
import { TextPage } from "../components/layout/legal-page";
import { ShareMenu } from "../components/loads/share-menu";
import { loadAppMessages } from "../lib/i18n";

export const Route = createFileRoute("/about")({ beforeLoad: () => loadAppMessages(), component: AboutPage });

/** The company share link: who MyTess is, with sharing of the company itself. */
function AboutPage() {
  const { t } = useLingui();
  const share = {
    title: "MyTess",
    description: t`The freight marketplace for drivers and shippers, in English, Amharic and Afaan Oromo.`,
    url: `${window.location.origin}/about`,
    hashtags: ["MyTess", "freight", "Ethiopia"],
  };
  return (
    <TextPage
      title={
        <Trans comment="Footer link, page title and heading of the page that explains what MyTess is">
          About MyTess
        </Trans>
      }
      description={<Trans>A freight marketplace for drivers and shippers, made in Addis Ababa.</Trans>}
      sections={[
        {
          heading: <Trans>What we do</Trans>,
          body: (
            <Trans>
              Shippers post loads; drivers near the pickup see them, bid and run the trip, with tracking and ratings on
              both sides. A parcel section compares FedEx, UPS and USPS rates and tracks packages.
            </Trans>
          ),
        },
        {
          heading: <Trans>Built for Ethiopia, open to the world</Trans>,
          body: (
            <Trans>
              MyTess speaks English, Amharic and Afaan Oromo, shows prices in US dollars, euros and birr, and works on
              modest phones and patchy networks: pages are light, and what you do offline is sent when the connection
              returns.
            </Trans>
          ),
        },
        {
          heading: <Trans>How we work</Trans>,
          body: (
            <Trans>
              Loads in progress, bids and messages are seen only by the people they concern, and we do not sell your
              data. Read our{" "}
              <Link to="/privacy" className="text-brand underline underline-offset-2">
                privacy notice
              </Link>{" "}
              and{" "}
              <Link to="/terms" className="text-brand underline underline-offset-2">
                terms of use
              </Link>
              .
            </Trans>
          ),
        },
      ]}
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-4" data-testid="company-share">
        <span className="text-sm font-medium">
          <Trans>Tell other drivers and shippers about MyTess</Trans>
        </span>
        <ShareMenu content={share} />
      </div>
    </TextPage>
  );
}
