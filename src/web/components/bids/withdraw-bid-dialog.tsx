import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";

/** Withdraw, asked first: a withdrawn bid cannot be taken back up, the driver would have to bid again. */
export function WithdrawBidDialog({
  amount,
  title,
  pending,
  onConfirm,
}: {
  /** The bid's amount, formatted in its currency. */
  amount: string;
  /** The load's title. */
  title: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" data-testid="withdraw-bid">
          <Trans comment="Button on the driver's pending bid: take back (withdraw) the bid">Withdraw</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} role="alertdialog" data-testid="withdraw-confirm">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Title of the question before a driver takes back their bid">Withdraw your bid?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              Your bid of {amount} on “{title}” goes back; the shipper can no longer accept it. You can bid again while
              the load is open.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">
              <Trans comment="Button: keep the bid as it is and close the question">Keep my bid</Trans>
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={pending}
            onClick={() => {
              onConfirm();
              setOpen(false);
            }}
            data-testid="withdraw-confirm-yes"
          >
            <Trans comment="Button: yes, take back (withdraw) the bid">Yes, withdraw</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
