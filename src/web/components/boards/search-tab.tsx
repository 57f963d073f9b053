import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { Card } from "../ui/card";
import { MarketplaceResult } from "./marketplace-result";
import { SearchForm, type TSearchErrors } from "./search-form";
import { serverMessage } from "./shared";

/** A live search of one board (a search the user starts, which DAT's terms allow). */
export function SearchTab() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const list = useQuery(trpc.boards.list.queryOptions());
  const [serverErrors, setServerErrors] = useState<TSearchErrors>({});
  const search = useMutation(
    trpc.boards.search.mutationOptions({
      onMutate: () => setServerErrors({}),
      onError: async (err) => {
        if (onUnauthorized(err)) return;
        const info = errorInfo(err);
        setServerErrors(Object.fromEntries(info.issues.map((i) => [i.path, i.message])));
        toast({
          title: t({ message: "Search Failed", comment: "Notice title: searching the outside board failed" }),
          description: serverMessage(err) ?? t`Failed to search marketplace loads`,
          variant: "destructive",
        });
        // The board's failure is recorded as its last error.
        await queryClient.invalidateQueries({ queryKey: trpc.boards.list.queryKey() });
      },
    }),
  );
  const board = list.data?.find((c) => c.id === search.variables?.id);
  const boardName = board?.name ?? "";
  const from = search.data?.searchedFrom;
  const place = from ? [from.city, from.state].filter(Boolean).join(", ") : "";
  const count = search.data?.results.length ?? 0;
  const unreadable = search.data?.unreadable ?? 0;

  return (
    <div className="grid gap-4">
      <Card className="p-4">
        <SearchForm
          configs={list.data ?? []}
          pending={search.isPending}
          serverErrors={serverErrors}
          onSearch={(input) => search.mutate(input)}
        />
      </Card>
      {search.isPending && (
        <p className="text-sm text-muted-foreground" role="status" data-testid="marketplace-searching">
          <Trans comment="Shown while the board {boardName} is being searched">Searching {boardName}…</Trans>
        </p>
      )}
      {search.isSuccess && (
        <section className="grid gap-3" aria-live="polite" data-testid="marketplace-results">
          <p className="text-sm text-muted-foreground" data-testid="marketplace-results-summary">
            {plural(count, { one: `# load from ${boardName}`, other: `# loads from ${boardName}` })}
            {place && (
              <>
                {" · "}
                <Trans comment="Marketplace search results: searched around the place {place}">around {place}</Trans>
              </>
            )}
          </p>
          {unreadable > 0 && (
            <p className="text-sm text-yellow-800" role="note" data-testid="marketplace-unreadable">
              {plural(unreadable, {
                one: `# load from ${boardName} could not be read`,
                other: `# loads from ${boardName} could not be read`,
              })}
            </p>
          )}
          {count === 0 ? (
            <Card className="p-8 text-center text-sm text-muted-foreground" data-testid="no-marketplace-results">
              <Trans>No loads found on this board for this search.</Trans>
            </Card>
          ) : (
            search.data.results.map((item, i) => <MarketplaceResult key={`${item.externalId}:${i}`} item={item} />)
          )}
        </section>
      )}
    </div>
  );
}
