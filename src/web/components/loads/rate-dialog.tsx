import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Star } from "lucide-react";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { isQueued, trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";

/** Rate the other side of a completed load, once, 1 to 5 stars. */
export function RateDialog({ loadId, whom }: { loadId: number; whom: "driver" | "shipper" }) {
  const { t } = useLingui();
  const label =
    whom === "driver"
      ? t({
          message: "Rate the driver",
          comment:
            "Button on a finished load for the shipper: give the driver a star rating (rate = rating, not a price)",
        })
      : t({
          message: "Rate the shipper",
          comment:
            "Button on a finished trip for the driver: give the shipper a star rating (rate = rating, not a price)",
        });
  const [open, setOpen] = useState(false);
  const [score, setScore] = useState(0);
  const queryClient = useQueryClient();
  const rate = useMutation(
    trpc.loads.rate.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({
          title: t({ message: "Rating saved", comment: "Notice title after a rating (stars) was saved" }),
          description: t`Thank you. Your rating is saved.`,
          variant: "success",
        });
        await queryClient.invalidateQueries();
      },
      onError: (err) =>
        isQueued(err)
          ? setOpen(false)
          : toast({
              title: t`Error`,
              description: t`Failed to save the rating. Please try again.`,
              variant: "destructive",
            }),
    }),
  );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <Star />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>{label}</DialogTitle>
          <DialogDescription>
            <Trans>How did this trip go? Your rating is final.</Trans>
          </DialogDescription>
        </DialogHeader>
        <div
          className="flex justify-center gap-2"
          role="radiogroup"
          aria-label={t({ message: "Score", comment: "Screen-reader name of the star choice in the rating dialog" })}
        >
          {[1, 2, 3, 4, 5].map((n) => (
            <button
              key={n}
              type="button"
              role="radio"
              aria-checked={score === n}
              aria-label={t({
                message: `${n} stars`,
                comment: "Screen-reader label of a star in the rating dialog: give {n} stars",
              })}
              onClick={() => setScore(n)}
              className="rounded p-1"
            >
              <Star className={cn("size-8", n <= score ? "fill-yellow-400 text-yellow-500" : "text-slate-300")} />
            </button>
          ))}
        </div>
        <DialogFooter>
          <Button disabled={score === 0 || rate.isPending} onClick={() => rate.mutate({ loadId, score })}>
            {rate.isPending ? (
              <Trans>Saving...</Trans>
            ) : (
              <Trans comment="Button in the rating dialog: save the stars given">Submit rating</Trans>
            )}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
