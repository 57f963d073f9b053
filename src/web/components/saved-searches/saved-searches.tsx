import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Bookmark, BookmarkPlus, Pencil } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AppRouter } from "../../../server/trpc/root";
import { LOAD_SORTS, type TLoadSort } from "../../../shared/schemas/loads";
import { rateToPerMile, type TUnits, weightToPounds } from "../../../shared/units";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { cn } from "../../lib/utils";
import type { TBoardSearch } from "../loads/board-search";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { TextField } from "../ui/input";
import { LoadError } from "../ui/load-error";

export type TSavedSearch = inferRouterOutputs<AppRouter>["savedSearches"]["list"][number];

/** Phones get 44 px tall buttons; desktops keep the compact ones. */
const TOUCH = "max-sm:h-11 max-sm:min-w-11";

const num = (v: string | undefined) => (v === undefined || v === "" || Number.isNaN(Number(v)) ? undefined : Number(v));
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const round = (v: number) => Math.round(v * 100) / 100;

/**
 * A saved search as the board's address: the API's parameters (pounds and per mile) back in the reader's units, the
 * place names beside their points. A value the board's address cannot hold is left out.
 */
export const savedSearchToBoard = (s: TSavedSearch, units: TUnits): TBoardSearch => {
  const p = s.search;
  const maxWeight = num(p.maxWeight);
  const minRate = num(p.minRate);
  const sort = LOAD_SORTS.includes(p.sort as TLoadSort) ? (p.sort as TLoadSort) : undefined;
  return {
    location: p.location,
    origin: p.latitude !== undefined ? (s.originName ?? undefined) : undefined,
    latitude: num(p.latitude),
    longitude: num(p.longitude),
    radius: num(p.radius),
    destination: p.destinationLatitude !== undefined ? (s.destinationName ?? undefined) : undefined,
    destinationLatitude: num(p.destinationLatitude),
    destinationLongitude: num(p.destinationLongitude),
    destinationRadius: num(p.destinationRadius),
    pickupFrom: p.pickupFrom && DAY_RE.test(p.pickupFrom) ? p.pickupFrom : undefined,
    pickupTo: p.pickupTo && DAY_RE.test(p.pickupTo) ? p.pickupTo : undefined,
    equipmentType: p.equipmentType,
    loadSize: p.loadSize === "full" || p.loadSize === "partial" ? p.loadSize : undefined,
    sourceType: p.sourceType === "mytess" || p.sourceType === "external" ? p.sourceType : undefined,
    // The API keeps pounds and per mile; the address holds what the reader types.
    maxWeight: maxWeight === undefined ? undefined : round(maxWeight / weightToPounds(1, units)),
    minRate: minRate === undefined ? undefined : round(minRate / rateToPerMile(1, units)),
    sort: sort === "distance" ? undefined : sort,
  };
};

const useRefresh = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.savedSearches.list.queryKey() });
};

/** "Save this search": names the board's current filters (the API's parameters) and keeps them. */
export function SaveSearchDialog({
  search,
  originName,
  destinationName,
  suggestedName,
}: {
  search: Record<string, string | number | string[] | undefined>;
  originName: string | null;
  destinationName: string | null;
  suggestedName: string;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const refresh = useRefresh();
  const onUnauthorized = useUnauthorizedRedirect();
  const create = useMutation(
    trpc.savedSearches.create.mutationOptions({
      onSuccess: async (s) => {
        setOpen(false);
        toast({
          title: t({ message: "Search saved", comment: "Notice after the load board's filters were saved by name" }),
          description: t`You will be told when a new load matches ${s.name}.`,
          variant: "success",
        });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        const info = errorInfo(err);
        setError(
          info.issues.find((i) => i.path === "name")?.message ?? (info.message || t`The search could not be saved`),
        );
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t`Give the search a name`);
      return;
    }
    const params = Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined)) as Record<
      string,
      string | number | string[]
    >;
    create.mutate({ name, search: params, originName, destinationName });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setName(suggestedName);
          setError(undefined);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" className={TOUCH} data-testid="save-search">
          <BookmarkPlus aria-hidden />
          <span className="sr-only md:not-sr-only">
            <Trans comment="Load board button: keep the current filters under a name and be alerted of new matches">
              Save this search
            </Trans>
          </span>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="save-search-dialog">
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>
              <Trans>Save this search</Trans>
            </DialogTitle>
            <DialogDescription>
              <Trans>
                The board's filters are kept under this name. New loads that match them reach you as notifications, on
                the channels you chose.
              </Trans>
            </DialogDescription>
          </DialogHeader>
          <TextField
            id="saved-search-name"
            label={<Trans comment="Field label: the name the user gives a saved load search">Name</Trans>}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            error={error}
            autoFocus
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                <Trans comment="Dialog button: close the dialog without doing anything (not “cancel a load”)">
                  Cancel
                </Trans>
              </Button>
            </DialogClose>
            <Button type="submit" disabled={create.isPending} data-testid="save-search-submit">
              {create.isPending ? (
                <Trans comment="Button while a saved search is being saved">Saving...</Trans>
              ) : (
                <Trans comment="Button: save the named search">Save</Trans>
              )}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RenameDialog({ search }: { search: TSavedSearch }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(search.name);
  const [error, setError] = useState<string | undefined>();
  const refresh = useRefresh();
  const onUnauthorized = useUnauthorizedRedirect();
  const rename = useMutation(
    trpc.savedSearches.rename.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        const info = errorInfo(err);
        setError(
          info.issues.find((i) => i.path === "name")?.message ?? (info.message || t`The search could not be renamed`),
        );
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t`Give the search a name`);
      return;
    }
    rename.mutate({ id: search.id, name });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setName(search.name);
          setError(undefined);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className={TOUCH} data-testid="rename-saved-search" title={t`Rename`}>
          <Pencil aria-hidden />
          <span className="sr-only">
            <Trans comment="Button: give a saved search another name">Rename</Trans>
          </span>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="rename-saved-search-dialog">
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>
              <Trans>Rename the search {search.name}</Trans>
            </DialogTitle>
            <DialogDescription>
              <Trans>Its filters stay as they are.</Trans>
            </DialogDescription>
          </DialogHeader>
          <TextField
            id={`saved-search-rename-${search.id}`}
            label={<Trans comment="Field label: the name the user gives a saved load search">Name</Trans>}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            error={error}
            autoFocus
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                <Trans comment="Dialog button: close the dialog without doing anything (not “cancel a load”)">
                  Cancel
                </Trans>
              </Button>
            </DialogClose>
            <Button type="submit" disabled={rename.isPending} data-testid="rename-saved-search-submit">
              <Trans comment="Button: save the named search">Save</Trans>
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function DeleteSavedSearch({ search }: { search: TSavedSearch }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const refresh = useRefresh();
  const onUnauthorized = useUnauthorizedRedirect();
  const remove = useMutation(
    trpc.savedSearches.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Error`,
          description: errorInfo(err).message || t`The search could not be deleted`,
          variant: "destructive",
        });
      },
    }),
  );
  return (
    <ConfirmDeleteDialog
      open={open}
      onOpenChange={setOpen}
      title={<Trans>Delete the saved search {search.name}?</Trans>}
      description={<Trans>You will no longer be told of new loads that match it.</Trans>}
      pending={remove.isPending}
      onConfirm={() => remove.mutate({ id: search.id })}
      testIds={{
        trigger: "delete-saved-search",
        dialog: "confirm-delete-saved-search-dialog",
        confirm: "confirm-delete-saved-search",
      }}
    />
  );
}

/**
 * The user's saved searches on the board, folded behind one button (which shows how many new loads wait): each opens
 * its filters on the board (its new loads count as seen), and can be renamed or deleted.
 */
export function SavedSearchList({ onOpen }: { onOpen: (board: TBoardSearch) => void }) {
  const { units, formatNumber } = usePreferences();
  const [shown, setShown] = useState(false);
  const list = useQuery(trpc.savedSearches.list.queryOptions(undefined, { staleTime: 30_000 }));
  const refresh = useRefresh();
  const open = useMutation(trpc.savedSearches.open.mutationOptions({ onSuccess: () => refresh() }));
  const fresh = list.data?.reduce((n, s) => n + s.newCount, 0) ?? 0;
  const count = list.data?.length ?? 0;
  return (
    <div className="contents">
      <Button
        size="sm"
        variant={shown ? "default" : "outline"}
        className={TOUCH}
        aria-expanded={shown}
        aria-controls="saved-searches"
        onClick={() => setShown(!shown)}
        data-testid="saved-searches-toggle"
      >
        <Bookmark aria-hidden />
        <span className="sr-only md:not-sr-only">
          <Trans comment="Load board button that shows or hides the user's saved searches">Saved searches</Trans>
        </span>
        {fresh > 0 && (
          <Badge variant="default" data-testid="saved-searches-new-total">
            {formatNumber(fresh)}
          </Badge>
        )}
      </Button>
      {shown && (
        <Card id="saved-searches" className="order-last w-full basis-full p-2 sm:p-3" data-testid="saved-searches">
          {list.isPending && (
            <p className="p-2 text-sm text-muted-foreground">
              <Trans>Loading saved searches...</Trans>
            </p>
          )}
          {list.isError && (
            <LoadError
              className="p-2"
              title={<Trans>Your saved searches could not be loaded. Please try again later.</Trans>}
              error={list.error}
              onRetry={list.refetch}
            />
          )}
          {list.data && count === 0 && (
            <p className="p-2 text-sm text-muted-foreground" data-testid="saved-searches-empty">
              <Trans>No saved searches yet. Set the filters, then choose “Save this search”.</Trans>
            </p>
          )}
          {list.data && count > 0 && (
            <ul className="divide-y">
              {list.data.map((s) => (
                <li key={s.id} className="flex items-center gap-1 py-1" data-testid="saved-search">
                  <Button
                    variant="link"
                    className={cn("min-w-0 flex-1 justify-start px-2 text-left", TOUCH)}
                    onClick={() => {
                      onOpen(savedSearchToBoard(s, units));
                      open.mutate({ id: s.id });
                      setShown(false);
                    }}
                    data-testid="open-saved-search"
                  >
                    <span className="truncate" data-testid="saved-search-name">
                      {s.name}
                    </span>
                  </Button>
                  {s.newCount > 0 && (
                    <Badge variant="default" className="shrink-0" data-testid="saved-search-new">
                      <Trans comment="Badge on a saved search: how many matching loads arrived since it was last opened">
                        {formatNumber(s.newCount)} new
                      </Trans>
                    </Badge>
                  )}
                  <RenameDialog search={s} />
                  <DeleteSavedSearch search={s} />
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
    </div>
  );
}

/**
 * The board's saved-search buttons: loaded after the board (they bring the dialogs' code), so the first rows never wait
 * for them.
 */
export default function SavedSearchTools(
  props: Parameters<typeof SaveSearchDialog>[0] & {
    onOpen: (board: TBoardSearch) => void;
  },
) {
  const { onOpen, ...save } = props;
  return (
    <>
      <SaveSearchDialog {...save} />
      <SavedSearchList onOpen={onOpen} />
    </>
  );
}
