import { useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { serverMessage, type TOrderDraft, useRefreshAfterConvert } from "./shared";

/** The server's answer when the order's delivery address cannot be placed: the shipper completes the load. */
const DELIVERY_FIELDS: ReadonlySet<string> = new Set([
  "deliveryLatitude",
  "deliveryLongitude",
  "deliveryCity",
  "deliveryCountry",
]);

export type TPlaceNeeded = { orderId: number; draft: TOrderDraft };

/**
 * Converts an order into a posted load (the Order Converted toast). When the server cannot place the delivery address,
 * the order's draft is fetched and handed to `onPlaceNeeded`, for the Post New Load dialog; the load completed there is
 * sent back with the order (`load`), and its failures are the dialog's to show.
 */
export function useConvertOrder(onPlaceNeeded: (p: TPlaceNeeded) => void) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const refresh = useRefreshAfterConvert();
  const onUnauthorized = useUnauthorizedRedirect();
  return useMutation(
    trpc.stores.convert.mutationOptions({
      onSuccess: async (res) => {
        toast({
          title: t({ message: "Order Converted", comment: "Notice title after a store order was turned into a load" }),
          description: res.load.title,
          variant: "success",
        });
        await refresh();
      },
      onError: async (err, vars) => {
        if (onUnauthorized(err)) return;
        const info = errorInfo(err);
        if (!vars.load && info.issues.some((i) => DELIVERY_FIELDS.has(i.path))) {
          try {
            const draft = await queryClient.fetchQuery(
              trpc.stores.orderDraft.queryOptions({ id: vars.id }, { staleTime: 0 }),
            );
            onPlaceNeeded({ orderId: vars.id, draft });
            return;
          } catch {
            // No draft: the failure is told as any other.
          }
        }
        toast({
          title: t({ message: "Conversion Failed", comment: "Notice title: turning a store order into a load failed" }),
          description: serverMessage(err) ?? t`Failed to convert the order`,
          variant: "destructive",
        });
        // Already a load, or cancelled meanwhile: the list shows it as it now is.
        if (info.status === 409) await refresh();
      },
    }),
  );
}

/**
 * Convert, step one: the load the order would become is fetched and handed to `onReady` for the Post New Load dialog,
 * so the shipper checks it before anything is posted. `pendingId` is the order being fetched.
 */
export function useReviewOrder(onReady: (p: TPlaceNeeded) => void) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const [pendingId, setPendingId] = useState<number | null>(null);
  const review = async (orderId: number) => {
    setPendingId(orderId);
    try {
      const draft = await queryClient.fetchQuery(
        trpc.stores.orderDraft.queryOptions({ id: orderId }, { staleTime: 0 }),
      );
      onReady({ orderId, draft });
    } catch (err) {
      if (onUnauthorized(err)) return;
      toast({
        title: t({ message: "Conversion Failed", comment: "Notice title: turning a store order into a load failed" }),
        description: serverMessage(err) ?? t`Failed to convert the order`,
        variant: "destructive",
      });
    } finally {
      setPendingId(null);
    }
  };
  return { review, pendingId };
}
