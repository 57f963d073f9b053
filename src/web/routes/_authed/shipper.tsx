import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { CheckCircle2, Gavel, Package, PiggyBank } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { LOAD_STATUSES, type TLoadStatus } from "../../../shared/schemas/loads";
import { PageHeader } from "../../components/layout/page-header";
import { StatCard } from "../../components/layout/stat-card";
import { WrongRole } from "../../components/layout/wrong-role";
import { MyLoadCard } from "../../components/loads/my-load";
import { MyLoadsTable } from "../../components/loads/my-loads-table";
import { PostLoadDialog } from "../../components/loads/post-load-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input, Label } from "../../components/ui/input";
import { LoadError } from "../../components/ui/load-error";
import { NativeSelect } from "../../components/ui/textarea";
import { useDesktop } from "../../lib/media";
import { useOfflineQueue } from "../../lib/offline-queue";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";

export const Route = createFileRoute("/_authed/shipper")({ component: ShipperDashboard });

function ShipperDashboard() {
  const { me } = Route.useRouteContext();
  if (me.userType !== "shipper") {
    return (
      <div>
        <PageHeader
          title={<Trans comment="Page title of the shipper's home page (dashboard)">Shipper Dashboard</Trans>}
          description={<Trans>Post loads, review bids and follow your shipments.</Trans>}
        />
        <WrongRole dashboardFor="shipper" />
      </div>
    );
  }
  return <ShipperHome />;
}

function ShipperHome() {
  const { t } = useLingui();
  const statusName: Record<TLoadStatus, string> = {
    posted: t`Posted`,
    assigned: t`Assigned`,
    in_transit: t`In transit`,
    delivered: t`Delivered`,
    disputed: t({ message: "Disputed", comment: "Filter of the shipper's loads by status: delivery disputed" }),
    completed: t`Completed`,
    cancelled: t`Cancelled`,
  };
  const { formatNumber } = usePreferences();
  const desktop = useDesktop();
  const stats = useQuery(trpc.dashboard.shipperStats.queryOptions(undefined, { staleTime: 30_000 }));
  const [status, setStatus] = useState<TLoadStatus | "">("");
  // Whose loads: a shipper company's members see the company's loads too, and may keep to their own or the company's.
  const company = useQuery(trpc.companies.mine.queryOptions(undefined, { staleTime: 60_000 }));
  const inCompany = company.data?.company?.kind === "shipper";
  const [scope, setScope] = useState<"all" | "mine" | "company">("all");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const q = useDeferredValue(search.trim());
  const mine = useQuery(
    trpc.loads.minePage.queryOptions(
      {
        status: status || undefined,
        q: q || undefined,
        scope: inCompany && scope !== "all" ? scope : undefined,
        page,
        pageSize: 20,
      },
      { staleTime: 30_000, placeholderData: keepPreviousData },
    ),
  );
  const loads = { ...mine, data: mine.data?.items };
  const filtered = Boolean(status || q || (inCompany && scope !== "all"));
  const queuedLoads = useOfflineQueue().queued.filter((q) => q.kind === "load");
  const s = stats.data;
  const savings =
    s?.avgSavings == null ? "—" : formatNumber(s.avgSavings, { style: "percent", maximumFractionDigits: 1 });
  return (
    <div className="grid gap-6">
      <PageHeader
        title={<Trans>Shipper Dashboard</Trans>}
        description={<Trans>Post loads, review bids and follow your shipments.</Trans>}
        actions={<PostLoadDialog />}
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          icon={Package}
          label={<Trans comment="Dashboard figure: the shipper's loads not yet finished">Active loads</Trans>}
          value={s ? formatNumber(s.active) : "…"}
          testId="stat-active"
        />
        <StatCard
          icon={Gavel}
          label={
            <Trans comment="Dashboard figure: the number of price offers (bids) received on the shipper's loads">
              Total bids
            </Trans>
          }
          value={s ? formatNumber(s.totalBids) : "…"}
          testId="stat-bids"
        />
        <StatCard
          icon={PiggyBank}
          label={
            <Trans comment="Dashboard figure: how much below their budget the shipper's loads were awarded, on average">
              Average savings
            </Trans>
          }
          value={savings}
          hint={<Trans>Budget minus accepted bid</Trans>}
          testId="stat-savings"
        />
        <StatCard
          icon={CheckCircle2}
          label={<Trans>Completed</Trans>}
          value={s ? formatNumber(s.completed) : "…"}
          testId="stat-completed"
        />
      </div>
      <section className="grid gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-lg font-semibold">
            <Trans>My Loads</Trans>
          </h2>
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1">
              <Label htmlFor="my-loads-search">
                <Trans>Search</Trans>
              </Label>
              <Input
                id="my-loads-search"
                type="search"
                className="w-56"
                placeholder={t`Title or place`}
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setPage(1);
                }}
              />
            </div>
            {inCompany && (
              <div className="grid gap-1">
                <Label htmlFor="my-loads-scope">
                  <Trans comment="Filter of My Loads for a shipper company's member: whose loads to show">
                    Posted by
                  </Trans>
                </Label>
                <NativeSelect
                  id="my-loads-scope"
                  value={scope}
                  onChange={(e) => {
                    setScope(e.target.value as "all" | "mine" | "company");
                    setPage(1);
                  }}
                >
                  <option value="all">
                    {t({
                      message: "Anyone",
                      comment: "My Loads filter: loads posted by me or by my company's members",
                    })}
                  </option>
                  <option value="mine">
                    {t({ message: "Mine", comment: "My Loads filter: only the loads I posted" })}
                  </option>
                  <option value="company">
                    {t({ message: "Company", comment: "My Loads filter: all the loads of my shipper company" })}
                  </option>
                </NativeSelect>
              </div>
            )}
            <div className="grid gap-1">
              <Label htmlFor="my-loads-status">
                <Trans>Status</Trans>
              </Label>
              <NativeSelect
                id="my-loads-status"
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as TLoadStatus | "");
                  setPage(1);
                }}
              >
                <option value="">{t`All statuses`}</option>
                {LOAD_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {statusName[s]}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
        </div>
        {loads.isPending && (
          <Card className="p-6 text-center text-muted-foreground">
            <Trans>Loading...</Trans>
          </Card>
        )}
        {loads.isError && (
          <LoadError
            card
            title={<Trans>Your loads could not be loaded. Please try again later.</Trans>}
            error={loads.error}
            onRetry={loads.refetch}
          />
        )}
        {loads.data?.length === 0 &&
          (filtered ? (
            <Card className="p-6 text-center text-muted-foreground" data-testid="no-matching-loads">
              <Trans>None of your loads match.</Trans>
            </Card>
          ) : (
            <Card className="p-6 text-center text-muted-foreground" data-testid="no-loads">
              <Trans>You have not posted a load yet. Post one and drivers nearby will bid.</Trans>
            </Card>
          ))}
        {desktop && (loads.data?.length || queuedLoads.length) ? (
          <MyLoadsTable
            loads={loads.data ?? []}
            queued={queuedLoads.map((q) => ({ id: q.id, title: String(q.input.title ?? "") }))}
          />
        ) : (
          <>
            {queuedLoads.map((q) => (
              <Card key={q.id} className="flex items-center justify-between gap-3 p-4" data-testid="pending-load">
                <div className="font-semibold">{String(q.input.title ?? "")}</div>
                <Badge variant="warning">
                  <Trans>Waiting to send</Trans>
                </Badge>
              </Card>
            ))}
            {loads.data?.map((l) => (
              <MyLoadCard key={l.id} load={l} />
            ))}
          </>
        )}
        {mine.data && (mine.data.page > 1 || mine.data.hasMore) && (
          <div className="flex items-center justify-between gap-2" data-testid="my-loads-paging">
            <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              <Trans>Previous</Trans>
            </Button>
            <span className="text-sm text-muted-foreground">
              <Trans comment="Shipper's load list: page {0} of {1}">
                Page {mine.data.page} of {Math.max(1, Math.ceil(mine.data.total / mine.data.pageSize))}
              </Trans>
            </span>
            <Button size="sm" variant="outline" disabled={!mine.data.hasMore} onClick={() => setPage(page + 1)}>
              <Trans>Next</Trans>
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}
