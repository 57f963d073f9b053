import { createFileRoute } from "@tanstack/react-router";
import { SharedTrip } from "../components/tracking/shared-trip";
import { loadAppMessages } from "../lib/i18n";

/** A trip's tracking link, opened by the consignee: public, signed in or not. */
export const Route = createFileRoute("/track/$token")({ beforeLoad: () => loadAppMessages(), component: TrackPage });

function TrackPage() {
  const { token } = Route.useParams();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      <SharedTrip token={token} />
    </div>
  );
}
