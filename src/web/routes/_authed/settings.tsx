import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { CurrencySelect } from "../../components/layout/currency-select";
import { LanguageSelect } from "../../components/layout/language-select";
import { PageHeader } from "../../components/layout/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";

export const Route = createFileRoute("/_authed/settings")({ component: SettingsPage });

function SettingsPage() {
  return (
    <div className="max-w-2xl">
      <PageHeader
        title={<Trans>Settings</Trans>}
        description={<Trans>Choices here are saved to your account and this device.</Trans>}
      />
      <div className="grid gap-4">
        <Card>
          <CardHeader>
            <CardTitle>
              <Trans>Language</Trans>
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
      </div>
    </div>
  );
}
