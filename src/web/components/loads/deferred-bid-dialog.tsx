import type { ReactElement } from "react";
import { Deferred, type TPartLoader } from "../ui/deferred";
import type { TBidLoad, TExistingBid } from "./bid-dialog";

type TProps = { load: TBidLoad; existing?: TExistingBid; trigger: ReactElement };

/** The bid dialog's module, loaded on demand (the board preloads it once its first page is shown). */
export const bidDialogPart: TPartLoader<TProps> = () => import("./bid-dialog").then((m) => m.BidDialog);

/** The bid dialog for pages that must show fast: its button at once, the dialog's code when it is wanted. */
export function DeferredBidDialog({ load, existing, trigger }: TProps) {
  if (load.source?.type === "external") return null;
  return <Deferred loader={bidDialogPart} trigger={trigger} props={{ load, existing, trigger }} />;
}
