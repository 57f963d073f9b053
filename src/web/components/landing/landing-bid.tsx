import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowRight, Gavel } from "lucide-react";
import { useState } from "react";
import { visitorRegion } from "../../../shared/region";
import { loginHref, useMe } from "../../lib/auth";
import { defaultBidCurrency, useBidForm } from "../../lib/bid-form";
import { savePendingBid } from "../../lib/pending-bid";
import { deviceHints, usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { isQueued, trpc } from "../../lib/trpc";
import { MoneyCurrencySelect } from "../loads/money-currency-select";
import { Amount } from "../money/amount";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { DateTimeField } from "../ui/date-time-field";
import { FieldError, Input, Label } from "../ui/input";
import { Textarea } from "../ui/textarea";
import { LandingBidPending } from "./landing-bid-pending";

/**
 * A bid form on a real load, near the visitor when one is posted there (else the newest): a visitor can try bidding as a driver would. Without an account the bid is kept
 * on this device (never sent) and the visitor is asked to create a driver account or sign in; it is placed right after.
 * A signed-in driver bids for real.
 */
export function LandingBid() {
  const { t } = useLingui();
  const { data: me } = useMe();
  const { formatDate, language } = usePreferences();
  const queryClient = useQueryClient();
  // A load near the visitor (their language's or device's country) before the newest anywhere.
  const region = visitorRegion({ language, ...deviceHints() });
  const loads = useQuery(
    trpc.platform.sampleLoads.queryOptions({ limit: 6, ...(region ? { region } : {}) }, { staleTime: 60_000 }),
  );
  const load = loads.data?.[0];
  const [kept, setKept] = useState(false);
  const place = useMutation(
    trpc.bids.place.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({ message: "Bid Placed", comment: "Notice title after a driver's bid (price offer) was sent" }),
          description: t`Your bid has been submitted successfully.`,
          variant: "success",
        });
        await queryClient.invalidateQueries();
      },
      onError: (err) => {
        if (!isQueued(err))
          toast({
            title: t({ message: "Error", comment: "Title of an error notice (toast)" }),
            description: t`Failed to place bid. Please try again.`,
            variant: "destructive",
          });
      },
    }),
  );
  const { error, submit } = useBidForm((draft) => {
    if (!load) return; // the form shows only with a load
    if (me?.userType === "driver") {
      place.mutate({ loadId: load.id, ...draft });
      return;
    }
    if (me) {
      toast({
        title: t`Only drivers can bid`,
        description: t`Sign in with a driver account to bid.`,
        variant: "warning",
      });
      return;
    }
    savePendingBid({
      loadId: load.id,
      loadTitle: load.title,
      ...draft,
      pickup: { latitude: load.pickupLatitude, longitude: load.pickupLongitude },
      equipmentType: load.equipmentType,
    });
    setKept(true);
  });

  if (loads.isPending) return <LandingBidPending />;
  if (!load) return null;

  return (
    <Card className="bg-white/95 text-slate-900 shadow-xl" data-testid="landing-bid">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Gavel className="size-5 text-brand" />
          <Trans>Try it: bid on a real load</Trans>
        </CardTitle>
        <CardDescription>
          <span className="font-medium text-slate-800" data-testid="landing-bid-title">
            {load.title}
          </span>
          <span className="mt-1 flex flex-wrap items-center gap-1" data-testid="landing-bid-route">
            {load.pickupLocation} <ArrowRight className="size-3" /> {load.deliveryLocation}
          </span>
          <span className="mt-1 block">
            <Trans comment="Landing page bid card: the load's budget, then its pickup date">
              Budget <Amount amount={load.budgetAmount} currency={load.budgetCurrency} testId="landing-bid-budget" /> ·
              pickup {formatDate(load.pickupDate, { dateStyle: "medium" })}
            </Trans>
          </span>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {kept ? (
          <div className="grid gap-3" data-testid="landing-bid-kept">
            <p className="text-sm">
              <Trans>
                Your bid is kept on this device and has not been sent. Create a driver account or sign in, and it is
                placed right away.
              </Trans>
            </p>
            <div className="flex flex-wrap gap-2">
              <Button asChild>
                <a href={loginHref("/driver", "driver", "register")}>
                  <Trans>Create a driver account</Trans>
                </a>
              </Button>
              <Button asChild variant="outline">
                <a href={loginHref("/driver", undefined, "signin")}>
                  <Trans comment="Link to the sign-in page (header, landing page), and that page's browser tab title">
                    Log in
                  </Trans>
                </a>
              </Button>
            </div>
          </div>
        ) : (
          <form className="grid gap-3" onSubmit={submit} noValidate>
            <div className="grid grid-cols-[1fr_auto] gap-2">
              <div className="grid gap-1.5">
                <Label htmlFor="landing-bid-amount">
                  <Trans comment="Label of the price field when a driver places a bid (offer) on a load">
                    Bid amount
                  </Trans>
                </Label>
                <Input
                  id="landing-bid-amount"
                  name="amount"
                  type="number"
                  inputMode="decimal"
                  step="0.01"
                  min="0.01"
                  aria-invalid={!!error}
                  aria-describedby={error ? "landing-bid-error" : undefined}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="landing-bid-currency">
                  <Trans comment="Label of a currency choice (USD, EUR, ETB): for a bid or budget, and for showing prices">
                    Currency
                  </Trans>
                </Label>
                <MoneyCurrencySelect
                  id="landing-bid-currency"
                  name="currency"
                  defaultValue={defaultBidCurrency(load.budgetCurrency)}
                />
              </div>
            </div>
            <FieldError id="landing-bid-error">{error}</FieldError>
            <DateTimeField
              id="landing-bid-pickup"
              name="proposedPickupDate"
              label={<Trans>Proposed pickup (optional)</Trans>}
            />
            <div className="grid gap-1.5">
              <Label htmlFor="landing-bid-notes">
                <Trans comment="Label of an optional note a driver adds to a bid">Notes (optional)</Trans>
              </Label>
              <Textarea id="landing-bid-notes" name="notes" maxLength={1000} rows={2} />
            </div>
            <Button type="submit" disabled={place.isPending}>
              {place.isPending ? (
                <Trans comment="Place Bid button while the bid is being sent">Placing...</Trans>
              ) : (
                <Trans comment="Button: send a price offer (bid) on this load">Place Bid</Trans>
              )}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
