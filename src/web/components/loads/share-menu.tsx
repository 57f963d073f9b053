import { Trans, useLingui } from "@lingui/react/macro";
import { Share2 } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "../ui/button";
import { Deferred, type TPartLoader } from "../ui/deferred";

export type TShareContent = { title: string; description: string; url: string; hashtags: string[] };

/** The Share button, the same before and after the menu's code has arrived. */
export function ShareTrigger({ iconOnly, ...rest }: { iconOnly?: boolean } & ComponentProps<typeof Button>) {
  const { t } = useLingui();
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={t({ message: "Share", comment: "Button on a load: share it (link, WhatsApp, Telegram)" })}
      data-testid="share-button"
      {...rest}
    >
      <Share2 />
      {!iconOnly && <Trans>Share</Trans>}
    </Button>
  );
}

type TProps = { content: TShareContent; iconOnly?: boolean };

/** The share menu's module, loaded on demand. */
export const shareMenuPart: TPartLoader<TProps> = () => import("./share-menu-part").then((m) => m.ShareMenuPart);

/**
 * Share to WhatsApp, Telegram, Facebook, X, LinkedIn or copy the link. `iconOnly` for a table row, where the column has
 * no room for the word (the button keeps it as its name). The menu's code loads when the button is wanted.
 */
export function ShareMenu({ content, iconOnly }: TProps) {
  return (
    <Deferred loader={shareMenuPart} trigger={<ShareTrigger iconOnly={iconOnly} />} props={{ content, iconOnly }} />
  );
}
