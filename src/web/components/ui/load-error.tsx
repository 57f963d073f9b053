import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { errorInfo } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Button } from "./button";
import { Card } from "./card";

/**
 * What a screen shows when its data could not be fetched: a title naming what failed ("Your trucks could not be
 * loaded."), the error's own message when there is one, and a Try again button (44 px) that fetches it again.
 * `card` draws it as a centred card, as lists show their empty state; otherwise it sits inline.
 */
export function LoadError({
  title,
  error,
  onRetry,
  card = false,
  className,
  testId,
}: {
  title: ReactNode;
  error?: unknown;
  onRetry?: () => unknown;
  card?: boolean;
  className?: string;
  testId?: string;
}) {
  const message = error == null ? "" : errorInfo(error).message.trim();
  const Box = card ? Card : "div";
  return (
    <Box
      role="alert"
      data-testid={testId}
      className={cn("grid gap-2 text-sm", card && "justify-items-center p-6 text-center", className)}
    >
      <p className="font-medium text-destructive" data-slot="load-error-title">
        {title}
      </p>
      {message && (
        <p className="break-words text-muted-foreground" data-slot="load-error-message">
          {message}
        </p>
      )}
      {onRetry && (
        <div>
          <Button variant="outline" className="min-h-11" onClick={() => void onRetry()}>
            <Trans comment="Button after something failed to appear: fetch it again">Try again</Trans>
          </Button>
        </div>
      )}
    </Box>
  );
}
