import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { BadgeCheck, Building2, LogOut, Settings, User } from "lucide-react";
import type { TPublicUser } from "../../lib/api-types";
import { clearPersistedQueries } from "../../lib/persist";
import { Button } from "../ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";

export const initials = (u: Pick<TPublicUser, "firstName" | "lastName">) =>
  `${u.firstName.charAt(0)}${u.lastName.charAt(0)}`.toUpperCase();

export function UserMenu({ user }: { user: TPublicUser }) {
  const { t } = useLingui();
  const userInitials = initials(user);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="rounded-full bg-teal-100 text-teal-900 max-sm:size-11"
          aria-label={t({
            message: `Account menu: ${userInitials}`,
            comment:
              "Screen-reader label of the round account button in the header that opens the account menu; the button shows the user's initials, named here too so the spoken name contains what is seen",
          })}
          data-testid="user-menu"
        >
          {user.profileImageUrl ? (
            <img src={user.profileImageUrl} alt="" className="size-9 rounded-full object-cover" />
          ) : (
            <span className="text-sm font-semibold">{userInitials}</span>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <div className="font-medium">
            {user.firstName} {user.lastName}
          </div>
          <div className="text-xs text-muted-foreground">{user.email ?? user.phone}</div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <User className="size-4" />
            <Trans comment="Account menu item and page title: the user's own details (name, account type)">
              Profile
            </Trans>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/company" data-testid="menu-company">
            <Building2 className="size-4" />
            <Trans comment="Account menu item and page title: the company the user belongs to">Company</Trans>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/verification">
            <BadgeCheck className="size-4" />
            <Trans comment="Account menu item and page title: the user's business verification (documents checked by MyTess)">
              Verification
            </Trans>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <Settings className="size-4" />
            <Trans comment="Account menu item and page title: the user's settings (language, currency, calendar)">
              Settings
            </Trans>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <a href="/api/logout" onClick={() => clearPersistedQueries()}>
            <LogOut className="size-4" />
            <Trans comment="Account menu item: sign out of MyTess">Log out</Trans>
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
