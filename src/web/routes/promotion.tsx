import { Trans, useLingui } from "@lingui/react/macro";
import { createFileRoute } from "@tanstack/react-router";
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { COPIED_INDICATOR_MS } from "../../shared/constants";
import { PageHeader } from "../components/layout/page-header";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { toast } from "../lib/toast";

export const Route = createFileRoute("/promotion")({ component: PromotionPage });

function CopyableText({ id, title, text }: { id: string; title: string; text: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast({
        title: t({ message: "Copy failed", comment: "Notice title: copying to the clipboard did not work" }),
        description: t`Please copy manually`,
        variant: "destructive",
      });
    }
  };
  return (
    <Card data-testid={`promo-${id}`}>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>{title}</CardTitle>
          <Button size="sm" variant="outline" onClick={copy} aria-live="polite">
            {copied ? <Check /> : <Copy />}
            {copied ? (
              <Trans comment="Button text for a moment after a promotion text was copied to the clipboard">
                Copied!
              </Trans>
            ) : (
              <Trans comment="Button: copy the text (promotion text, webhook address) to the clipboard">Copy</Trans>
            )}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <p className="whitespace-pre-line text-sm text-slate-700">{text}</p>
      </CardContent>
    </Card>
  );
}

function PromotionPage() {
  const { t } = useLingui();
  const url = `${window.location.origin}/landing`;
  const highlights = [
    t`Six months of premium access free for every new account`,
    t`Loads near you, sorted by distance, rate or date`,
    t`English, Amharic and Afaan Oromo`,
    t`Prices in US dollars, euros and Ethiopian birr`,
  ];
  const texts = [
    {
      id: "social",
      title: t`Social media post`,
      text: t`Drivers and shippers: MyTess puts loads and trucks on one board. Find loads near you, bid in minutes and get paid for good work. Six months of premium free. ${url}`,
    },
    {
      id: "pitch",
      title: t({
        message: "Elevator pitch",
        comment: "Promotion page: title of a short spoken text presenting MyTess",
      }),
      text: t`MyTess is a freight marketplace where shippers post loads and nearby drivers bid on them. It works in English, Amharic and Afaan Oromo, shows prices in dollars, euros or birr, and runs on any phone.`,
    },
    {
      id: "email",
      title: t`Email to a colleague`,
      text: t`Hello,\n\nI have started using MyTess to find freight. Shippers post loads, drivers nearby bid, and everyone rates each other after the trip. New accounts get six months of premium free.\n\nHave a look: ${url}`,
    },
    {
      id: "press",
      title: t({ message: "Press release", comment: "Promotion page: title of a press release text" }),
      text: t`ADDIS ABABA: MyTess opens its freight marketplace to drivers and shippers in Ethiopia and worldwide. Shippers post loads with pickup and delivery points; drivers see the loads nearest to them and bid. The service is available in English, Amharic and Afaan Oromo, with prices in USD, EUR and ETB. New users receive six months of premium access at no cost. More at ${url}`,
    },
  ];
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <PageHeader
        title={
          <Trans comment="Title of the page with ready-made texts to tell others about MyTess">Promote MyTess</Trans>
        }
        description={<Trans>Ready-made texts to share MyTess with drivers and shippers you know.</Trans>}
      />
      <Card className="mb-6">
        <CardHeader>
          <CardTitle>
            <Trans comment="Promotion page: card title above short selling points">Highlights</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2 sm:grid-cols-2">
            {highlights.map((h) => (
              <li key={h} className="flex items-start gap-2 text-sm">
                <Check className="mt-0.5 size-4 text-brand" />
                {h}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <div className="grid gap-4">
        {texts.map((x) => (
          <CopyableText key={x.id} {...x} />
        ))}
      </div>
    </div>
  );
}
