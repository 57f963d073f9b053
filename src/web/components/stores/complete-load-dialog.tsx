import { Trans, useLingui } from "@lingui/react/macro";
import type { TCreateLoadForm } from "../../../shared/schemas/loads";
import { PostLoadDialog } from "../loads/post-load-dialog";
import type { TPlaceNeeded } from "./use-convert-order";

/**
 * The Post New Load dialog, filled from an order whose delivery address could not be placed: the shipper picks the
 * delivery city (and checks the rest); posting converts the order with that load.
 */
export function CompleteLoadDialog({
  needed,
  onClose,
  onSubmitLoad,
}: {
  needed: TPlaceNeeded;
  onClose: () => void;
  onSubmitLoad: (load: TCreateLoadForm) => Promise<unknown>;
}) {
  const { t } = useLingui();
  const { draft } = needed;
  const order = draft.order.orderNumber;
  const missing = new Set(draft.missing);
  const pick = t`Pick the delivery city from the suggestions so the load can be placed on the map`;
  const initialErrors: Record<string, string> = { deliveryCity: pick };
  if (missing.has("deliveryCountry"))
    initialErrors.deliveryCountry = t({
      message: "Required",
      comment: "Form error under an empty field that must be filled",
    });
  return (
    <PostLoadDialog
      open
      onOpenChange={(open) => !open && onClose()}
      initial={draft.load}
      initialErrors={initialErrors}
      onSubmitLoad={onSubmitLoad}
      description={
        <span data-testid="complete-load-notice">
          <Trans>
            The delivery address of order {order} cannot be placed on the map. Complete the delivery place, check the
            load, and post it.
          </Trans>
        </span>
      }
    />
  );
}
