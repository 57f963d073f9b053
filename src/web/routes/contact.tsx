import { Trans } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { Mail, MapPin } from "lucide-react";
import { PageHeader } from "../components/layout/page-header";
import { Card, CardContent } from "../components/ui/card";

export const Route = createFileRoute("/contact")({ component: ContactPage });

function ContactPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader
        title={<Trans>Contact us</Trans>}
        description={<Trans>Questions about loads, billing or your account? Write to us.</Trans>}
      />
      <Card>
        <CardContent className="grid gap-4 pt-5">
          <p className="flex items-center gap-2">
            <Mail className="size-5 text-brand" />
            <a className="text-brand hover:underline" href="mailto:support@mytess.app">
              support@mytess.app
            </a>
          </p>
          <p className="flex items-center gap-2">
            <MapPin className="size-5 text-brand" />
            <Trans>Bole Road, Addis Ababa, Ethiopia</Trans>
          </p>
          <p className="text-sm text-muted-foreground">
            <Trans>We answer in English, Amharic and Afaan Oromo within one working day.</Trans>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
