import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Bell } from "lucide-react";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";
import { LoadError } from "../ui/load-error";

/** The bell: unread count on the button, the latest notifications in the menu; opening one marks it read. */
export function NotificationBell() {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.notifications.list.queryOptions({ page: 1, pageSize: 20 }));
  const unread = list.data?.unread ?? 0;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.notifications.list.queryKey() });
  const markRead = useMutation(trpc.notifications.markRead.mutationOptions({ onSettled: refresh }));
  const markAll = useMutation(trpc.notifications.markAllRead.mutationOptions({ onSettled: refresh }));
  const label =
    unread === 0
      ? t({
          message: "Notifications",
          comment: "Bell menu title and screen-reader label: notifications received in MyTess",
        })
      : plural(unread, { one: "# unread notification", other: "# unread notifications" });
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative max-sm:size-11"
          aria-label={label}
          data-testid="notification-bell"
        >
          <Bell className="size-5" />
          {unread > 0 && (
            <span
              className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold text-white"
              data-testid="notification-count"
              aria-hidden
            >
              {unread > 99 ? "99+" : unread}
            </span>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-[min(22rem,calc(100vw-1rem))] p-0" data-testid="notification-list">
        <div className="flex items-center justify-between gap-2 px-3 py-2">
          <DropdownMenuLabel className="p-0">
            <Trans>Notifications</Trans>
          </DropdownMenuLabel>
          {unread > 0 && (
            <button
              type="button"
              className="text-xs font-medium text-brand hover:underline disabled:opacity-50"
              disabled={markAll.isPending}
              onClick={(e) => {
                e.preventDefault();
                markAll.mutate();
              }}
            >
              <Trans>Mark all as read</Trans>
            </button>
          )}
        </div>
        <DropdownMenuSeparator className="my-0" />
        <div className="max-h-[60vh] overflow-y-auto">
          {list.isPending ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground" role="status">
              <Trans comment="Shown while a card's data is fetched from the server (not loading cargo)">Loading…</Trans>
            </p>
          ) : list.isError ? (
            <LoadError
              className="px-3 py-6 text-center"
              title={<Trans>Your notifications could not be loaded.</Trans>}
              error={list.error}
              onRetry={list.refetch}
            />
          ) : list.data.items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground">
              <Trans>No notifications yet. Bids, awards, trip updates and messages will show here.</Trans>
            </p>
          ) : (
            list.data.items.map((n) => (
              <DropdownMenuItem
                key={n.id}
                className={cn("flex flex-col items-start gap-0.5 rounded-none px-3 py-2", !n.read && "bg-teal-50")}
                data-testid="notification-item"
                data-read={n.read}
                onSelect={() => {
                  if (!n.read) markRead.mutate({ ids: [n.id] });
                  if (n.loadId) void navigate({ to: "/loads/$id", params: { id: String(n.loadId) } });
                }}
              >
                <span className="flex w-full items-center gap-2">
                  {!n.read && (
                    <span className="size-2 shrink-0 rounded-full bg-brand">
                      <span className="sr-only">
                        {t({
                          message: "Unread",
                          comment: "Screen-reader text on a notification that has not been read yet",
                        })}
                      </span>
                    </span>
                  )}
                  <span className="min-w-0 font-medium wrap-anywhere">{n.title}</span>
                </span>
                <span className="line-clamp-2 w-full text-sm text-muted-foreground wrap-anywhere">{n.body}</span>
                <time className="text-xs text-muted-foreground" dateTime={n.createdAt}>
                  {formatDate(n.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                </time>
              </DropdownMenuItem>
            ))
          )}
        </div>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
