import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { ChevronLeft, ChevronRight, List, LocateFixed, Map as MapIcon, SlidersHorizontal } from "lucide-react";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { BOARD_PAGE_SIZE, boardStatsInput, firstBoardPage } from "../../../shared/board";
import type { TLoadSort } from "../../../shared/schemas/loads";
import { ratePerDistance, type TUnits } from "../../../shared/units";
import { BidAction } from "../../components/bids/bid-action";
import { StaleNotice } from "../../components/layout/stale-notice";
import {
  activeFilterCount,
  filtersToInput,
  filtersToSearch,
  parseBoardSearch,
  searchToFilters,
  type TBoardFilters,
} from "../../components/loads/board-search";
import { bidDialogPart } from "../../components/loads/deferred-bid-dialog";
import { LoadCard } from "../../components/loads/load-card";
import { PosterCallLink } from "../../components/loads/load-cells";
import { LoadFilters } from "../../components/loads/load-filters";
import { LoadLine } from "../../components/loads/load-line";
import { LoadTable, loadKey } from "../../components/loads/load-table";
import { shareMenuPart } from "../../components/loads/share-menu";
import { Amount } from "../../components/money/amount";
import { RatesNote } from "../../components/money/rates-note";
import { boardSearchParams } from "../../components/saved-searches/search-params";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { preloadPart } from "../../components/ui/deferred";
import { LoadError } from "../../components/ui/load-error";
import { NativeSelect } from "../../components/ui/textarea";
import type { TBoardAnswer, TPublicUser } from "../../lib/api-types";
import { currentPosition, type TPoint } from "../../lib/geolocation";
import { whenIdle } from "../../lib/idle";
import { useDesktop } from "../../lib/media";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";

const PAGE_SIZE = BOARD_PAGE_SIZE;
/** The app header's height (h-16), under which sticky parts of the page stop. */
const HEADER_PX = 64;

const LoadsMap = lazy(() => import("../../components/map/loads-map"));
const SavedSearchTools = lazy(() => import("../../components/saved-searches/saved-searches"));

const savedOrigin = (me: TPublicUser): TPoint | null =>
  me.location ? { latitude: me.location.latitude, longitude: me.location.longitude } : null;

/** The search input of the board: the same for the route's prefetch and the page's own query. */
const boardInput = (
  filters: TBoardFilters,
  origin: TPoint | null,
  sort: TLoadSort,
  page: number,
  units: TUnits = "imperial",
) => ({
  ...filtersToInput(filters, units),
  ...(origin ?? {}),
  sort,
  page,
  pageSize: PAGE_SIZE,
});

/** A board address with nothing in it but (perhaps) a shared load: the first page the server prepared fits it. */
const isPlainBoard = (s: Record<string, unknown>) =>
  Object.entries(s).every(([k, v]) => k === "highlight" || v === undefined);

export const Route = createFileRoute("/_authed/loads")({
  // Every filter, the sort and the page live in the address (a reload, a shared link and the back button keep them).
  validateSearch: parseBoardSearch,
  loaderDeps: ({ search }) => ({ plain: isPlainBoard(search) }),
  // The first page's loads and figures are asked for while the page's code is still arriving.
  // A first visit finds them in the cache already: the server gave the same answers with the page (shared/board.ts).
  loader: ({ context, deps }) => {
    if (!deps.plain) return;
    const input = firstBoardPage(savedOrigin(context.me));
    void context.queryClient.prefetchQuery(trpc.loads.search.queryOptions(input, { staleTime: 30_000 }));
    void context.queryClient.prefetchQuery(
      trpc.loads.stats.queryOptions(boardStatsInput(input), { staleTime: 30_000 }),
    );
  },
  component: LoadBoardPage,
});

function LoadBoardPage() {
  const { t } = useLingui();
  const { me } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { highlight } = search;
  const { formatNumber, units } = usePreferences();
  const filters = searchToFilters(search);
  const sort: TLoadSort = search.sort ?? "distance";
  const page = search.page ?? 1;
  // A new question starts again at its first page; each change is a step the back button undoes.
  const setFilters = (f: TBoardFilters) => {
    const next = filtersToSearch(f);
    // Typing in a text field replaces the address instead of adding a step per key.
    const typing = (Object.keys(next) as (keyof typeof next)[]).every(
      (k) => ["location", "origin", "destination"].includes(k) || next[k] === search[k],
    );
    void navigate({ search: { ...next, highlight, sort: search.sort }, replace: typing });
  };
  const setSort = (s: TLoadSort) =>
    void navigate({ search: (prev) => ({ ...prev, sort: s === "distance" ? undefined : s, page: undefined }) });
  const setPage = (p: number) => void navigate({ search: (prev) => ({ ...prev, page: p === 1 ? undefined : p }) });
  // My position: the origin without a place's name.
  const setPoint = (p: TPoint) => setFilters({ ...filters, origin: "", latitude: p.latitude, longitude: p.longitude });
  const point =
    filters.latitude !== undefined && filters.longitude !== undefined
      ? { latitude: filters.latitude, longitude: filters.longitude }
      : null;
  const [locating, setLocating] = useState(false);
  const [view, setView] = useState<"list" | "map">("list");
  const [filtersOpen, setFiltersOpen] = useState(false);
  const desktop = useDesktop();
  const resultsRef = useRef<HTMLDivElement>(null);
  // The table's header row sticks below the app's header and the sticky filters, whatever height they wrap to.
  const [filterHeight, setFilterHeight] = useState(0);
  const filterBar = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const observer = new ResizeObserver(() => setFilterHeight(el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const stickyTop = HEADER_PX + filterHeight;
  const isDriver = me.userType === "driver";
  // The driver's last known position comes with the current user, so the first search is already "near me" (one
  // search, no figures jumping when a second answer arrives).
  const origin = point ?? savedOrigin(me);
  const { latitude: _la, longitude: _lo, ...rest } = filters;

  const input = boardInput(rest, origin, sort, page, units);
  const results = useQuery(
    trpc.loads.search.queryOptions(input, { placeholderData: keepPreviousData, staleTime: 30_000 }),
  );
  const { page: _p, pageSize: _s, sort: _o, ...statsInput } = input;
  const stats = useQuery(
    trpc.loads.stats.queryOptions(statsInput, { placeholderData: keepPreviousData, staleTime: 30_000 }),
  );
  const highlighted = useQuery({
    ...trpc.loads.byId.queryOptions({ loadId: highlight ?? 0 }),
    enabled: highlight !== undefined,
    retry: false,
  });

  // The bid dialog and the share menu load once the first page is on screen, so a click rarely waits for them.
  const shown = results.data !== undefined;
  useEffect(() => {
    if (!shown) return;
    return whenIdle(() => {
      void preloadPart(bidDialogPart).catch(() => undefined);
      void preloadPart(shareMenuPart).catch(() => undefined);
    });
  }, [shown]);

  useEffect(() => {
    if (highlighted.data)
      document.getElementById(`load-${highlighted.data.id}`)?.scrollIntoView({ behavior: "smooth", block: "center" });
  }, [highlighted.data]);

  const locate = async () => {
    setLocating(true);
    try {
      setPoint(await currentPosition());
    } catch (err) {
      console.warn("Device location unavailable", err);
    } finally {
      setLocating(false);
    }
  };

  const quickBid = (load: {
    id: number;
    status: string;
    source: { type: string };
    title: string;
    budgetAmount: number;
    budgetCurrency: string;
    pickupLocation: string;
    deliveryLocation: string;
  }) => (
    <BidAction
      load={load}
      isDriver={isDriver}
      testId="quick-bid"
      label={<Trans comment="Button on a load of the load board: offer a price (place a bid) quickly">Quick Bid</Trans>}
    />
  );

  const s = stats.data;
  const avgRate = s?.avgRatePerMileUsd;
  const items = results.data?.items.filter((l) => l.id === 0 || l.id !== highlighted.data?.id) ?? [];
  const activeFilters = activeFilterCount(filters);
  const goToPage = (p: number) => {
    setPage(p);
    resultsRef.current?.scrollIntoView({ block: "start" });
  };
  return (
    <div>
      {/* One line of title and figures (four cards on a desktop would push the table's rows off the first screen). */}
      <div className="mb-2 flex flex-wrap items-baseline gap-x-5 gap-y-1 sm:-mt-3 lg:-mt-5">
        <h1 className="text-2xl font-bold tracking-tight">
          <Trans comment="Header link, page title and heading: the board that lists all posted loads (freight offers)">
            Load Board
          </Trans>
        </h1>
        <dl className="hidden flex-wrap gap-x-4 gap-y-1 text-sm sm:flex" data-testid="board-figures">
          <BoardFigure
            label={<Trans comment="Load board figure: how many loads the search found">Loads found</Trans>}
            value={s ? formatNumber(s.total) : "…"}
            testId="stat-total"
          />
          <BoardFigure label={<Trans>Urgent</Trans>} value={s ? formatNumber(s.urgent) : "…"} />
          <BoardFigure
            label={units === "metric" ? <Trans>Average rate per km</Trans> : <Trans>Average rate per mile</Trans>}
            value={avgRate == null ? "—" : <Amount amount={ratePerDistance(avgRate, units)} currency="USD" />}
          />
          <BoardFigure label={<Trans>From external boards</Trans>} value={s ? formatNumber(s.external) : "…"} />
        </dl>
        {/* A phone gets one short line of figures, so the first loads show on the first screen. */}
        <p className="basis-full text-sm text-muted-foreground sm:hidden" data-testid="board-summary">
          {s ? <BoardSummary total={s.total} urgent={s.urgent} /> : "…"}
        </p>
        <RatesNote className="basis-full sm:basis-auto" />
      </div>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          className="sm:hidden"
          aria-expanded={filtersOpen}
          aria-controls="board-filters"
          onClick={() => setFiltersOpen(!filtersOpen)}
          data-testid="filters-toggle"
        >
          <SlidersHorizontal />
          <Trans comment="Load board button that shows or hides the filters">Filters</Trans>
          {activeFilters > 0 && <Badge variant="default">{formatNumber(activeFilters)}</Badge>}
        </Button>
        <label htmlFor="sort" className="sr-only text-sm text-muted-foreground sm:not-sr-only">
          <Trans comment="Label of the load board's sort choice (distance, price per mile, pickup date)">Sort by</Trans>
        </label>
        {/* Shrinks on a phone so the toolbar stays one row in every language. */}
        <div className="min-w-0 flex-1 sm:w-44 sm:flex-none">
          <NativeSelect
            id="sort"
            value={sort}
            onChange={(e) => setSort(e.target.value as TLoadSort)}
            data-testid="sort-select"
          >
            <option value="distance">{t`Distance`}</option>
            <option value="rate">{units === "metric" ? t`Rate per km` : t`Rate per mile`}</option>
            <option value="date">
              {t({ message: "Pickup date", comment: "Load board sort choice: by pickup date" })}
            </option>
          </NativeSelect>
        </div>
        <Suspense fallback={null}>
          <SavedSearchTools
            onOpen={(board) => void navigate({ search: board })}
            search={boardSearchParams({ ...filtersToInput(rest, units), ...(origin ?? {}) }, sort)}
            originName={point && filters.origin ? filters.origin : null}
            destinationName={
              filters.destinationLatitude !== undefined && filters.destination ? filters.destination : null
            }
            suggestedName={
              origin || filters.destination
                ? `${filters.origin || (origin ? t({ message: "My position", comment: "A saved search's suggested name when its origin is the user's own position" }) : t({ message: "Anywhere", comment: "A saved search's suggested name when it has no origin or no destination: loads from or to anywhere" }))} → ${filters.destination || t({ message: "Anywhere", comment: "A saved search's suggested name when it has no origin or no destination: loads from or to anywhere" })}`
                : t({ message: "My search", comment: "Suggested name of a saved load search with no places in it" })
            }
          />
        </Suspense>
        {/* Where distances are measured from: its own line on a phone, beside the tools on a desktop. */}
        <div className="order-last flex basis-full items-center gap-2 text-xs text-muted-foreground sm:order-none sm:basis-auto sm:text-sm">
          {origin ? (
            <span data-testid="origin-note">
              {point && filters.origin ? (
                <Trans comment="Load board: distances are measured from the origin place the user picked">
                  Distances from {filters.origin}.
                </Trans>
              ) : point ? (
                <Trans>Distances from your current position.</Trans>
              ) : (
                <Trans>Distances from your last shared location.</Trans>
              )}
            </span>
          ) : (
            <span>
              <Trans>Share your location to see distances and loads near you.</Trans>
            </span>
          )}
          {/* Only the icon on a phone (the words stay the button's name), so the note and the button share a line. */}
          <Button
            size="sm"
            variant="outline"
            onClick={() => void locate()}
            disabled={locating}
            title={t`Use my location`}
          >
            <LocateFixed />
            <span className="sr-only sm:not-sr-only">
              {locating ? <Trans>Locating...</Trans> : <Trans>Use my location</Trans>}
            </span>
          </Button>
        </div>
        <div className="ml-auto flex gap-1 sm:gap-2" role="group" aria-label={t`Show the results as`}>
          <Button
            size="sm"
            variant={view === "list" ? "default" : "outline"}
            aria-pressed={view === "list"}
            onClick={() => setView("list")}
            data-testid="view-list"
          >
            <List />
            <span className="sr-only sm:not-sr-only">
              <Trans comment="Load board view switch: show loads as a list (not on a map)">List</Trans>
            </span>
          </Button>
          <Button
            size="sm"
            variant={view === "map" ? "default" : "outline"}
            aria-pressed={view === "map"}
            onClick={() => setView("map")}
            data-testid="view-map"
          >
            <MapIcon />
            <span className="sr-only sm:not-sr-only">
              <Trans comment="Load board view switch: show loads on a map">Map</Trans>
            </span>
          </Button>
        </div>
      </div>
      <LoadFilters
        id="board-filters"
        ref={filterBar}
        value={filters}
        onChange={setFilters}
        showRadius={origin !== null}
        compact
        folded={!filtersOpen}
        // Kept in sight while a long table scrolls under it (the app's header is h-16).
        className="lg:sticky lg:top-16 lg:z-30"
      />
      {results.data && <BoardAnswers boards={results.data.boards} which="failed" className="mt-2" />}
      <div className="h-2" />
      {highlighted.data && (
        <div className="mb-4">
          <h2 className="mb-2 text-sm font-semibold text-brand">
            <Trans>Shared with you</Trans>
          </h2>
          <LoadCard load={highlighted.data} highlighted actions={quickBid(highlighted.data)} />
        </div>
      )}
      {view === "map" && results.data && results.data.items.length > 0 && (
        <div className="mb-4">
          <Suspense fallback={<div className="h-[260px] animate-pulse rounded-lg bg-muted md:h-[320px]" />}>
            <LoadsMap loads={results.data.items} origin={origin} query={{ ...statsInput, sort }} />
          </Suspense>
        </div>
      )}
      <div
        className="grid gap-3"
        data-testid="load-results"
        ref={resultsRef}
        style={{ scrollMarginTop: desktop ? stickyTop : HEADER_PX }}
      >
        {results.isPending && (
          <Card className="p-6 text-center text-muted-foreground">
            <Trans>Loading loads...</Trans>
          </Card>
        )}
        {/* Results kept from earlier stay on screen under a quiet line; the error card is for a board with nothing to show. */}
        {results.data && results.dataUpdatedAt > 0 && (
          <StaleNotice updatedAt={results.dataUpdatedAt} failed={results.isError} testId="board-stale" />
        )}
        {results.isError && !results.data && (
          <LoadError
            card
            title={<Trans>The load board could not be loaded. Please try again later.</Trans>}
            error={results.error}
            onRetry={results.refetch}
          />
        )}
        {results.data?.items.length === 0 && (
          <Card className="p-6 text-center text-muted-foreground" data-testid="no-loads">
            <Trans>No loads match these filters. Widen the radius or clear a filter.</Trans>
          </Card>
        )}
        {view === "list" && items.length > 0 && desktop && (
          <LoadTable
            loads={items}
            sort={sort}
            onSort={setSort}
            canSortByDistance={origin !== null}
            actions={quickBid}
            stickyTop={stickyTop}
          />
        )}
        {view === "list" && !desktop && items.length > 0 && (
          <ul
            className="divide-y overflow-hidden rounded-xl border bg-white"
            aria-label={t({ message: "Loads", comment: "Screen-reader name of the load board table" })}
          >
            {items.map((l) => (
              <LoadLine
                key={loadKey(l)}
                load={l}
                action={
                  l.source.type === "external" && l.source.contact ? (
                    <PosterCallLink contact={l.source.contact} />
                  ) : (
                    quickBid(l)
                  )
                }
              />
            ))}
          </ul>
        )}
      </div>
      {results.data && <BoardAnswers boards={results.data.boards} which="answered" className="mt-3" />}
      {results.data && results.data.items.length > 0 && (
        <div className="mt-4 flex flex-wrap items-center justify-center gap-3 text-sm" data-testid="board-paging">
          <span className="text-muted-foreground" data-testid="board-range">
            <PageRange page={page} shown={results.data.items.length} total={s?.total} />
          </span>
          {(page > 1 || results.data.hasMore) && (
            <span className="flex items-center gap-2">
              <Button variant="outline" size="sm" disabled={page === 1} onClick={() => goToPage(page - 1)}>
                <ChevronLeft />
                <Trans>Previous</Trans>
              </Button>
              <Button variant="outline" size="sm" disabled={!results.data.hasMore} onClick={() => goToPage(page + 1)}>
                <Trans>Next</Trans>
                <ChevronRight />
              </Button>
            </span>
          )}
        </div>
      )}
    </div>
  );
}

function BoardFigure({ label, value, testId }: { label: ReactNode; value: ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline gap-1.5" data-testid={testId}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums" data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </dd>
    </div>
  );
}

function BoardSummary({ total, urgent }: { total: number; urgent: number }) {
  const { formatNumber } = usePreferences();
  const found = formatNumber(total);
  const soon = formatNumber(urgent);
  return (
    <Trans>
      {found} loads found · {soon} urgent
    </Trans>
  );
}

/**
 * Where this page sits in the answer: "Showing 21–40 of 165" (the total from the board's figures, which count the same
 * filters), or the page's number until the figures arrive.
 */
function PageRange({ page, shown, total }: { page: number; shown: number; total: number | undefined }) {
  const { formatNumber } = usePreferences();
  const first = (page - 1) * PAGE_SIZE + 1;
  const last = first + shown - 1;
  if (total === undefined)
    return <Trans comment="Load board: page number when the total is not known">Page {page}</Trans>;
  const from = formatNumber(first);
  const to = formatNumber(last);
  const of = formatNumber(Math.max(total, last));
  return (
    <Trans comment="Load board: which results are shown out of how many">
      Showing {from}–{to} of {of}
    </Trans>
  );
}

/**
 * Which of the user's boards are in the list, and which did not answer (a slow or failing board never blocks the rest).
 * The ones that failed show above the results on every screen; the ones that answered below them, on wider screens
 * only, so the first loads stay on the first screen.
 */
function BoardAnswers({
  boards,
  which,
  className,
}: {
  boards: TBoardAnswer[];
  which: "failed" | "answered";
  className?: string;
}) {
  const failed = (b: TBoardAnswer) => b.state === "failed" || b.state === "timeout";
  const shown = boards.filter((b) => failed(b) === (which === "failed"));
  if (!shown.length) return null;
  return (
    <div
      className={cn(which === "failed" ? "flex" : "hidden sm:flex", "flex-wrap gap-2 text-xs sm:text-sm", className)}
      data-testid="board-answers"
    >
      {shown.map((b) => (
        <span
          key={b.configId}
          data-testid="board-answer"
          data-state={b.state}
          title={b.error ?? undefined}
          className={
            failed(b)
              ? "rounded-md bg-destructive/10 px-2 py-1 text-destructive"
              : "rounded-md bg-muted px-2 py-1 text-muted-foreground"
          }
        >
          {b.state === "ok" && (
            <Trans comment="Load board status line: {1} loads found live on the outside board {0}">
              {b.name}: {b.count} live
            </Trans>
          )}
          {b.unreadable > 0 && (
            <span data-testid="board-answer-unreadable">
              {" · "}
              {plural(b.unreadable, { one: "# could not be read", other: "# could not be read" })}
            </span>
          )}
          {b.state === "synced" && (
            <Trans comment="Load board status line: the outside board {0} has been synced">{b.name}: synced</Trans>
          )}
          {b.state === "timeout" && <Trans>{b.name} did not answer in time</Trans>}
          {b.state === "failed" && (
            <Trans comment="Load board status line: the outside board {0} could not be searched, with the reason">
              {b.name} failed: {b.error}
            </Trans>
          )}
          {b.state === "no_location" && <Trans>{b.name}: share your location to search it</Trans>}
          {b.state === "outside_area" && <Trans>{b.name}: searches North America only, not searched here</Trans>}
        </span>
      ))}
    </div>
  );
}
