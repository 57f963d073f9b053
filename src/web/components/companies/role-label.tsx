import { useLingui } from "@lingui/react/macro";
import type { TCompanyKind, TCompanyRole } from "../../../shared/schemas/companies";

/** The names of a company member's roles and of the kinds of company, in the reader's language. */
export const useCompanyWords = () => {
  const { t } = useLingui();
  const role: Record<TCompanyRole, string> = {
    owner: t({ message: "Owner", comment: "A company member's role: owns and manages the company" }),
    dispatcher: t({
      message: "Dispatcher",
      comment: "A carrier company member's role: bids for the company and assigns its trips to its drivers",
    }),
    driver: t({ message: "Driver", comment: "A carrier company member's role: drives the company's trips" }),
    staff: t({ message: "Staff", comment: "A shipper company member's role: posts and manages the company's loads" }),
  };
  const kind: Record<TCompanyKind, string> = {
    carrier: t({
      message: "Carrier company",
      comment: "Kind of company: a trucking business (fleet) that carries loads",
    }),
    shipper: t({ message: "Shipper company", comment: "Kind of company: a business that sends loads" }),
  };
  return { role, kind };
};
