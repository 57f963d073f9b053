import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { oceanCrossing } from "../../../shared/landmass";
import type { TCreateLoadForm } from "../../../shared/schemas/loads";
import { messageIdOf } from "../../lib/trpc";
import { PostLoadDialog } from "../loads/post-load-dialog";
import type { TPlaceNeeded } from "./use-convert-order";

/** Below this an order is a parcel more than a load (70 kg, in pounds as loads keep weights). */
const PARCEL_MAX_LBS = 70 / 0.45359237;

/**
 * The Post New Load dialog, filled from an order, for the shipper to check before anything is posted: posting converts
 * the order with that load. When the order's delivery address could not be placed the shipper picks the delivery city
 * first; an order light enough for a parcel carrier says so, with the way to the parcel section. An order across an ocean
 * (countries no road joins, or the server says so after a change of the delivery place) is flagged: it needs ocean
 * freight, and goes as a truck load only once the shipper ticks that they know (`confirmOceanCrossing`).
 */
export function CompleteLoadDialog({
  needed,
  onClose,
  onSubmitLoad,
}: {
  needed: TPlaceNeeded;
  onClose: () => void;
  onSubmitLoad: (load: TCreateLoadForm, confirmOceanCrossing: boolean) => Promise<unknown>;
}) {
  const { t } = useLingui();
  const { draft } = needed;
  const order = draft.order.orderNumber;
  const missing = new Set(draft.missing);
  const unplaced = draft.missing.length > 0 || draft.load.deliveryLatitude == null;
  const initialErrors: Record<string, string> = {};
  if (unplaced)
    initialErrors.deliveryCity = t`Pick the delivery city from the suggestions so the load can be placed on the map`;
  if (missing.has("deliveryCountry"))
    initialErrors.deliveryCountry = t({
      message: "Required",
      comment: "Form error under an empty field that must be filled",
    });
  const parcel = draft.load.weight != null && draft.load.weight < PARCEL_MAX_LBS;
  const [ocean, setOcean] = useState(() =>
    oceanCrossing(draft.load.pickupCountry, draft.load.deliveryCountry)
      ? { from: draft.load.pickupCountry, to: draft.load.deliveryCountry }
      : null,
  );
  const [confirmed, setConfirmed] = useState(false);
  const from = ocean?.from;
  const to = ocean?.to;
  const submit = async (load: TCreateLoadForm) => {
    try {
      return await onSubmitLoad(load, ocean !== null && confirmed);
    } catch (err) {
      // The delivery place was changed to one across an ocean: the form flags it as it would have from the start.
      if (messageIdOf(err) === "error.ecommerce.oceanCrossing")
        setOcean({ from: load.pickupCountry, to: load.deliveryCountry });
      throw err;
    }
  };
  return (
    <PostLoadDialog
      open
      onOpenChange={(open) => !open && onClose()}
      initial={draft.load}
      initialErrors={initialErrors}
      onSubmitLoad={submit}
      description={
        <span className="grid gap-2">
          {unplaced ? (
            <span data-testid="complete-load-notice">
              <Trans>
                The delivery address of order {order} cannot be placed on the map. Complete the delivery place, check
                the load, and post it.
              </Trans>
            </span>
          ) : (
            <span data-testid="review-load-notice">
              <Trans comment="Post Load form opened from a store order: nothing is posted until the shipper posts it">
                The load from order {order}: check it and post it.
              </Trans>
            </span>
          )}
          {ocean && (
            <span
              className="grid gap-2 rounded-md bg-amber-50 p-2 text-amber-900"
              data-testid="ocean-crossing"
              role="note"
            >
              <span>
                <Trans comment="Post Load form from a store order whose two countries no road joins (e.g. Ethiopia and United States)">
                  No road joins {from} and {to}: this order needs ocean freight, not a truck load.
                </Trans>
              </span>
              <label className="flex min-h-11 items-center gap-2 font-medium sm:min-h-0">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={confirmed}
                  onChange={(e) => setConfirmed(e.target.checked)}
                  data-testid="confirm-ocean-crossing"
                />
                <Trans comment="Checkbox on a store order across an ocean: the shipper posts it for a truck anyway (to or from a port)">
                  Post it as a truck load all the same
                </Trans>
              </label>
            </span>
          )}
          {parcel && (
            <span className="rounded-md bg-amber-50 p-2 text-amber-900" data-testid="parcel-suggestion">
              <Trans>This load weighs under 70 kg: a parcel carrier may suit it better.</Trans>{" "}
              <Link to="/shipping" className="font-medium underline">
                <Trans comment="Link from a light store order to the parcel rate calculator">
                  Compare parcel rates
                </Trans>
              </Link>
            </span>
          )}
        </span>
      }
    />
  );
}
