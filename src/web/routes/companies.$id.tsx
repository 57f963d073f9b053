import { createFileRoute } from "@tanstack/react-router";
import { CompanyProfile } from "../components/trust/company-profile";
import { loadAppMessages } from "../lib/i18n";

/** A company's public profile, linked from the trust line of its loads and bids: public, signed in or not. */
export const Route = createFileRoute("/companies/$id")({ beforeLoad: () => loadAppMessages(), component: CompanyPage });

function CompanyPage() {
  const { id } = Route.useParams();
  const companyId = Number(id);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-8">
      {/* An id that is no id is asked as 0, which the server answers as it answers an unknown company. */}
      <CompanyProfile id={Number.isSafeInteger(companyId) && companyId > 0 ? companyId : 0} />
    </div>
  );
}
