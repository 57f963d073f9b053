import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { ContactPanel } from "../../components/account/contact-panel";
import { YourDataPanel } from "../../components/account/your-data-panel";
import { CalendarSelect } from "../../components/layout/calendar-select";
import { CurrencySelect } from "../../components/layout/currency-select";
import { LanguageSelect } from "../../components/layout/language-select";
import { PageHeader } from "../../components/layout/page-header";
import { UnitsSelect } from "../../components/layout/units-select";
import { PushPanel } from "../../components/notifications/push-panel";
import { PaymentsPanel } from "../../components/payments/payments-panel";
import { PayoutSetup } from "../../components/payouts/payout-setup";
import { ApiTokensPanel } from "../../components/tokens/api-tokens-panel";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Label } from "../../components/ui/input";
import { WebhooksPanel } from "../../components/webhooks/webhooks-panel";
import { useMe } from "../../lib/auth";
import { usePreferences } from "../../lib/preferences";

export const Route = createFileRoute("/_authed/settings")({ component: SettingsPage });

function SettingsPage() {
  const me = useMe();
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={
          <Trans comment="Account menu item and page title: the user's settings (language, currency, calendar)">
            Settings
          </Trans>
        }
        description={<Trans>Choices here are saved to your account and this device.</Trans>}
      />
      <div className="grid gap-4">
        <ContactPanel />
        <Card>
          <CardHeader>
            <CardTitle>
              <Trans comment="Label of the language choice (header menu, settings card title)">Language</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>The language of menus, messages and alerts.</Trans>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <LanguageSelect className="w-56" />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <Trans>Currency</Trans>
            </CardTitle>
            <CardDescription>
              <Trans>
                Budgets and bids are converted to this currency for display; the original amount is always shown too.
              </Trans>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <CurrencySelect className="w-56" />
          </CardContent>
        </Card>
        <CalendarCard />
        <UnitsCard />
        <PaymentsPanel />
        {me.data?.userType === "driver" ? <PayoutSetup /> : null}
        <PushPanel />
        <ApiTokensPanel />
        <WebhooksPanel />
        <YourDataPanel />
      </div>
    </div>
  );
}

/** The Gregorian or the Ethiopian calendar, and the Ethiopian time of day beside the clock. */
function CalendarCard() {
  const { calendar, ethiopianTime, setCalendar, formatDate } = usePreferences();
  const now = Date.now();
  return (
    <Card data-testid="calendar-settings">
      <CardHeader>
        <CardTitle>
          <Trans comment="Footer label and settings card title: choice between the Gregorian and Ethiopian calendar for dates">
            Calendar
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>How dates are shown: pickup and delivery, trips, bids and notifications.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <Label htmlFor="calendar-select">
          <Trans>Calendar</Trans>
        </Label>
        <CalendarSelect id="calendar-select" className="w-56" />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={ethiopianTime}
            onChange={(e) => setCalendar(calendar, e.target.checked)}
            className="size-4 accent-teal-700"
          />
          <Trans>Also show the Ethiopian time of day (hours counted from 6 in the morning)</Trans>
        </label>
        <p className="text-sm text-muted-foreground" data-testid="calendar-example">
          <Trans comment="Settings, calendar card: today's date shown as the chosen calendar writes it">
            Today: {formatDate(now, { dateStyle: "long", timeStyle: "short" })}
          </Trans>
        </p>
      </CardContent>
    </Card>
  );
}

/** Kilometres and kilograms or miles and pounds; loads keep their stored figures, only what is shown changes. */
function UnitsCard() {
  const { formatDistance, formatWeight, formatRatePerDistance } = usePreferences();
  const distance = formatDistance(155, 0);
  const weight = formatWeight(40_000);
  const rate = formatRatePerDistance(2.5, "USD");
  return (
    <Card data-testid="units-settings">
      <CardHeader>
        <CardTitle>
          <Trans comment="Settings card title and footer label: the choice of kilometres and kilograms or miles and pounds">
            Units
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>How distances, weights and rates per distance are shown, here and in bot messages and alerts.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <Label htmlFor="units-select">
          <Trans comment="Settings: label of the units choice (kilometres and kilograms or miles and pounds)">
            Units
          </Trans>
        </Label>
        <UnitsSelect id="units-select" className="w-56" />
        <p className="text-sm text-muted-foreground" data-testid="units-example">
          <Trans comment="Settings, units card: an example trip shown in the chosen units ({distance}: 250 km; {weight}: 18.1 t; {rate}: Br 71.43/km)">
            For example: {distance} · {weight} · {rate}
          </Trans>
        </p>
      </CardContent>
    </Card>
  );
}
