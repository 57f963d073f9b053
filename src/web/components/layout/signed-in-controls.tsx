import type { TPublicUser } from "../../lib/api-types";
import { useLiveUpdates } from "../../lib/live";
import { TooltipProvider } from "../ui/tooltip";
import { NotificationBell } from "./notification-bell";
import { SubscriptionBadge } from "./subscription-badge";
import { UserMenu } from "./user-menu";

export default function SignedInControls({ user }: { user: TPublicUser }) {
  useLiveUpdates(true);
  return (
    <TooltipProvider>
      <div className="flex items-center gap-1">
        <SubscriptionBadge />
        <NotificationBell />
        <UserMenu user={user} />
      </div>
    </TooltipProvider>
  );
}
