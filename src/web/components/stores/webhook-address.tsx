import { Trans, useLingui } from "@lingui/react/macro";
import { Copy } from "lucide-react";
import { toast } from "../../lib/toast";
import { Button } from "../ui/button";

/** Where Shopify sends this integration's orders/create and orders/updated webhooks, with a copy button. */
export function WebhookAddress({ integrationId }: { integrationId: number }) {
  const { t } = useLingui();
  const url = `${window.location.origin}/api/ecommerce/webhooks/${integrationId}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t`Webhook address copied`, description: url, variant: "success" });
    } catch {
      toast({
        title: t({ message: "Copy Failed", comment: "Notice title: copying to the clipboard did not work" }),
        description: t`Please copy the address manually`,
        variant: "destructive",
      });
    }
  };
  return (
    <div className="mt-3 grid gap-1.5 rounded-md border bg-muted/40 p-3 text-sm" data-testid="webhook-address">
      <div className="font-medium">
        <Trans comment="Store card: the address the store sends its webhooks to">Webhook address</Trans>
      </div>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-xs" data-testid="webhook-url">
          {url}
        </code>
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => void copy()}
          aria-label={t`Copy webhook address`}
          data-testid="copy-webhook"
        >
          <Copy aria-hidden />
          <span className="hidden sm:inline">
            <Trans comment="Button: copy the text (promotion text, webhook address) to the clipboard">Copy</Trans>
          </span>
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        <Trans>
          Have Shopify send the orders/create and orders/updated webhooks (JSON) to this address, from your app's
          webhook subscriptions or under Settings → Notifications in your Shopify admin, so new orders arrive without
          waiting for a sync.
        </Trans>
      </p>
    </div>
  );
}
