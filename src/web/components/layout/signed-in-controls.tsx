import type { TPublicUser } from "../../../server/domain/users/public-user";
import { TooltipProvider } from "../ui/tooltip";
import { SubscriptionBadge } from "./subscription-badge";
import { UserMenu } from "./user-menu";

export default function SignedInControls({ user }: { user: TPublicUser }) {
  return (
    <TooltipProvider>
      <div className="flex items-center gap-2">
        <SubscriptionBadge />
        <UserMenu user={user} />
      </div>
    </TooltipProvider>
  );
}
