import { createFileRoute } from "@tanstack/react-router";
import { InvitationPage } from "../components/companies/invitation-page";
import { loadAppMessages } from "../lib/i18n";

/** A company invitation's link, from its mail or SMS: public, signed in or not. */
export const Route = createFileRoute("/invitations/$token")({
  beforeLoad: () => loadAppMessages(),
  component: Page,
});

function Page() {
  const { token } = Route.useParams();
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-8 sm:py-12">
      <InvitationPage token={token} />
    </div>
  );
}
