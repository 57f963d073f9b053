import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Building2 } from "lucide-react";
import { trpc } from "../../lib/trpc";

/** In the bid form of a carrier's owner or dispatcher: the bid is the company's, as the server records it. */
export function BiddingFor() {
  const mine = useQuery({ ...trpc.companies.mine.queryOptions(), staleTime: 60_000 });
  const m = mine.data;
  if (m?.company.kind !== "carrier" || !(m.role === "owner" || m.role === "dispatcher")) return null;
  const companyName = m.company.name;
  return (
    <p className="flex items-start gap-2 rounded-md bg-teal-50 p-3 text-sm text-teal-900" data-testid="bid-for-company">
      <Building2 aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        <Trans>
          You bid for {companyName}. If the shipper accepts, the trip is the company's and you assign one of its
          drivers.
        </Trans>
      </span>
    </p>
  );
}
