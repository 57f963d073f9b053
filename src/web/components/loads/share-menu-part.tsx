import { Trans, useLingui } from "@lingui/react/macro";
import { Link2 } from "lucide-react";
import { STORAGE_KEYS } from "../../../shared/constants";
import { toast } from "../../lib/toast";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";

import { ShareTrigger, type TShareContent } from "./share-menu";

// The share menu itself, loaded on demand (`ShareMenu` in share-menu.tsx): Radix's menu and positioning stay off the
// first screen of pages that show many loads.

const PLATFORMS = {
  WhatsApp: (c: TShareContent) => `https://wa.me/?text=${encodeURIComponent(`${c.title}\n${c.description}\n${c.url}`)}`,
  Telegram: (c: TShareContent) =>
    `https://t.me/share/url?url=${encodeURIComponent(c.url)}&text=${encodeURIComponent(`${c.title}: ${c.description}`)}`,
  Facebook: (c: TShareContent) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(c.url)}`,
  X: (c: TShareContent) =>
    `https://twitter.com/intent/tweet?text=${encodeURIComponent(c.title)}&url=${encodeURIComponent(c.url)}&hashtags=${encodeURIComponent(c.hashtags.join(","))}`,
  LinkedIn: (c: TShareContent) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(c.url)}`,
} as const;
export type TPlatform = keyof typeof PLATFORMS | "copy";

/** The local engagement log: what was shared where, the last 100 entries. */
export const logEngagement = (entry: { platform: TPlatform; url: string }) => {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.engagementLog);
    const log = raw ? (JSON.parse(raw) as unknown[]) : [];
    log.push({ ...entry, at: new Date().toISOString() });
    localStorage.setItem(STORAGE_KEYS.engagementLog, JSON.stringify(log.slice(-100)));
  } catch (err) {
    console.warn("Could not record the share", err);
  }
};

export function ShareMenuPart({
  content,
  iconOnly,
  defaultOpen,
}: {
  content: TShareContent;
  iconOnly?: boolean;
  defaultOpen?: boolean;
}) {
  const { t } = useLingui();
  const share = (platform: keyof typeof PLATFORMS) => {
    // Without "noopener" in the features, a blocked pop-up shows as null; the opener is cut by hand instead.
    const win = window.open(PLATFORMS[platform](content), "_blank");
    if (!win) {
      toast({
        title: t({ message: "Share Failed", comment: "Notice title: sharing did not work" }),
        description: t`Please try again or copy the link manually`,
        variant: "destructive",
      });
      return;
    }
    win.opener = null;
    logEngagement({ platform, url: content.url });
    toast({
      title: t({ message: "Shared Successfully!", comment: "Notice title after the load was shared" }),
      description: t`Content shared on ${platform}`,
      variant: "success",
    });
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(content.url);
      logEngagement({ platform: "copy", url: content.url });
      toast({
        title: t({ message: "Link Copied!", comment: "Notice title after the load's link was copied" }),
        description: t`Share link copied to clipboard`,
        variant: "success",
      });
    } catch {
      toast({ title: t`Copy Failed`, description: t`Please copy the link manually`, variant: "destructive" });
    }
  };
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <ShareTrigger iconOnly={iconOnly} />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {(Object.keys(PLATFORMS) as (keyof typeof PLATFORMS)[]).map((p) => (
          <DropdownMenuItem key={p} onSelect={() => share(p)}>
            {p}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void copy()}>
          <Link2 className="size-4" />
          <Trans comment="Share menu item: copy the load's link to the clipboard">Copy link</Trans>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
