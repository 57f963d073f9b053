import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MessageSquare, Send } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useOfflineQueue } from "../../lib/offline-queue";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, isQueued, trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "../ui/dialog";
import { Input } from "../ui/input";
import { LoadError } from "../ui/load-error";

export function Thread({ loadId, driverId }: { loadId: number; driverId?: number }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const queryClient = useQueryClient();
  const input = { loadId, driverId };
  const thread = useQuery(trpc.messages.list.queryOptions(input, { staleTime: 0 }));
  const [body, setBody] = useState("");
  // Messages written offline show at the bottom of the thread until they are sent.
  const pending = useOfflineQueue().queued.filter(
    (q) => q.kind === "message" && q.input.loadId === loadId && q.input.driverId === driverId,
  );
  const end = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView({ block: "end" });
  }, [count]);
  const send = useMutation(
    trpc.messages.send.mutationOptions({
      onSuccess: async () => {
        setBody("");
        await queryClient.invalidateQueries(trpc.messages.list.queryFilter(input));
      },
      onError: async (err) => {
        if (isQueued(err)) return setBody("");
        // A conversation closed meanwhile (the load was awarded or cancelled) shows why instead of a retry prompt.
        if (errorInfo(err).code === "FORBIDDEN") {
          await queryClient.invalidateQueries(trpc.messages.list.queryFilter(input));
          return;
        }
        toast({
          title: t`Error`,
          description: t`Failed to send the message. Please try again.`,
          variant: "destructive",
        });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (body.trim()) send.mutate({ loadId, driverId, body: body.trim() });
  };
  return (
    <div className="grid gap-3">
      <div className="flex h-72 flex-col gap-2 overflow-y-auto rounded-md bg-muted p-3" data-testid="message-thread">
        {thread.isPending && (
          <p className="text-sm text-muted-foreground">
            <Trans>Loading...</Trans>
          </p>
        )}
        {thread.isError && (
          <LoadError
            title={<Trans>The conversation could not be loaded.</Trans>}
            error={thread.error}
            onRetry={thread.refetch}
          />
        )}
        {thread.data?.messages.length === 0 && (
          <p className="text-sm text-muted-foreground">
            <Trans>No messages yet. Say hello.</Trans>
          </p>
        )}
        {thread.data?.messages.map((m) => (
          <div
            key={m.id}
            className={cn(
              "max-w-[80%] rounded-lg px-3 py-2 text-sm",
              m.fromMe ? "self-end bg-brand text-white" : "self-start bg-white",
            )}
          >
            <div className="whitespace-pre-wrap">{m.body}</div>
            <div className={cn("mt-1 text-[10px]", m.fromMe ? "text-teal-100" : "text-muted-foreground")}>
              {formatDate(m.createdAt, { dateStyle: "short", timeStyle: "short" })}
            </div>
          </div>
        ))}
        {pending.map((q) => (
          <div
            key={q.id}
            className="max-w-[80%] self-end rounded-lg bg-brand/60 px-3 py-2 text-sm text-white"
            data-testid="pending-message"
          >
            <div className="whitespace-pre-wrap">{String(q.input.body ?? "")}</div>
            <div className="mt-1 text-[10px] text-teal-50">
              <Trans>Waiting to send</Trans>
            </div>
          </div>
        ))}
        <div ref={end} />
      </div>
      {thread.data?.closed ? (
        <p className="rounded-md border px-3 py-2 text-sm text-muted-foreground" data-testid="conversation-closed">
          {thread.data.closed === "cancelled" ? (
            <Trans>The load was cancelled. This conversation is closed.</Trans>
          ) : (
            <Trans>The load went to another driver. This conversation is closed.</Trans>
          )}
        </p>
      ) : (
        <form className="flex gap-2" onSubmit={submit}>
          <Input
            value={body}
            onChange={(e) => setBody(e.target.value)}
            placeholder={t`Write a message`}
            aria-label={t({ message: "Message", comment: "Screen-reader label of the chat message field" })}
            maxLength={2000}
          />
          <Button
            type="submit"
            disabled={!body.trim() || send.isPending}
            aria-label={t({
              message: "Send",
              comment: "Screen-reader label of the chat's send button: send the message",
            })}
          >
            <Send />
          </Button>
        </form>
      )}
    </div>
  );
}

/** The shipper's messages for a load: one conversation per driver who bid. */
export function ShipperMessagesDialog({ loadId, title, unread }: { loadId: number; title: string; unread: number }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [driverId, setDriverId] = useState<number>();
  const conversations = useQuery({
    ...trpc.messages.conversations.queryOptions({ loadId }),
    enabled: open,
    staleTime: 0,
  });
  const first = conversations.data?.[0]?.driverId;
  useEffect(() => {
    if (open && driverId === undefined && first !== undefined) setDriverId(first);
  }, [open, driverId, first]);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <MessageSquare />
          <Trans comment="Header link, page title and dialog title: chat messages between a shipper and drivers about a load">
            Messages
          </Trans>
          {unread > 0 && <Badge variant="destructive">{unread}</Badge>}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} width="lg">
        <DialogHeader>
          <DialogTitle>
            <Trans>Messages</Trans>
          </DialogTitle>
          <DialogDescription>{title}</DialogDescription>
        </DialogHeader>
        {conversations.data?.length === 0 && (
          <p className="text-sm text-muted-foreground">
            <Trans>Drivers who bid on this load can write to you here.</Trans>
          </p>
        )}
        {!!conversations.data?.length && (
          <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
            <div className="flex gap-2 overflow-x-auto sm:flex-col">
              {conversations.data.map((c) => (
                <button
                  key={c.driverId}
                  type="button"
                  onClick={() => setDriverId(c.driverId)}
                  className={cn(
                    "flex items-center justify-between gap-2 rounded-md border px-3 py-2 text-left text-sm",
                    driverId === c.driverId && "border-brand bg-teal-50",
                  )}
                >
                  <span className="truncate">{c.driverName}</span>
                  {c.unread > 0 && <Badge variant="destructive">{c.unread}</Badge>}
                </button>
              ))}
            </div>
            {driverId !== undefined && <Thread loadId={loadId} driverId={driverId} />}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** A driver's conversation with the shipper of a load they bid on. */
export function DriverMessagesDialog({ loadId, title }: { loadId: number; title: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <MessageSquare />
          <Trans comment="Button on a load for the driver: write to the load's shipper">Message shipper</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Messages</Trans>
          </DialogTitle>
          <DialogDescription>{title}</DialogDescription>
        </DialogHeader>
        {open && <Thread loadId={loadId} />}
      </DialogContent>
    </Dialog>
  );
}
