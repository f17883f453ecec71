import type { BundleCount } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowRightIcon, PlugZapIcon, ShieldCheckIcon, UsersIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { FilterSelect } from "@/components/filter-select";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Permission, usePermissions } from "@/lib/permissions";
import {
  bundleSummaryQuery,
  complianceTrendQuery,
  eventTotalsQuery,
  trendBundlesQuery,
  waiverSummaryQuery,
} from "../api/dashboard-queries";
import { compliancePercent, trendPoints } from "../trend-points";

const ComplianceChart = lazy(() => import("./compliance-chart"));

const steps = [
  {
    to: "/connectors",
    icon: PlugZapIcon,
    title: "Connect a cloud",
    text: "Add an AWS organisation, an Azure tenant or the built-in sandbox cloud.",
  },
  {
    to: "/policies",
    icon: ShieldCheckIcon,
    title: "Deploy a policy",
    text: "Pick a guardrail from the catalogue and deploy it in alert or prevent mode.",
  },
  {
    to: "/team-members",
    icon: UsersIcon,
    title: "Invite your team",
    text: "Give colleagues the role they need, from viewer to administrator.",
  },
] as const;

function GettingStarted() {
  return (
    <>
      <div className="grid gap-4 md:grid-cols-3">
        {steps.map(({ to, icon: Icon, title, text }) => (
          <Link
            key={to}
            to={to}
            className="group rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <Card className="h-full transition-colors group-hover:border-primary/40">
              <CardHeader>
                <div className="mb-2 flex size-9 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </div>
                <CardTitle className="flex items-center gap-1 text-base">
                  {title}
                  <ArrowRightIcon
                    className="size-4 opacity-0 transition-opacity group-hover:opacity-100"
                    aria-hidden="true"
                  />
                </CardTitle>
                <CardDescription>{text}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
      <EmptyState
        image="table"
        title="Nothing to report yet"
        description="Once a policy is deployed to a connected cloud, prevented actions, alerts, waivers and drifts are summarised here, with the most active policies and the compliance trend."
      />
    </>
  );
}

function Stat({ label, value, hint }: { label: string; value: number | undefined; hint?: string }) {
  return (
    <Card className="py-4">
      <CardContent className="px-5">
        <p className="text-xs text-muted-foreground">{label}</p>
        <p className="text-3xl font-semibold tabular-nums">
          {value === undefined ? <Skeleton className="mt-1 h-8 w-12" /> : value}
        </p>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </CardContent>
    </Card>
  );
}

function MostActive({ title, items }: { title: string; items: BundleCount[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-sm">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">None yet.</p>
        ) : (
          <ol className="space-y-1 text-sm">
            {items.slice(0, 5).map((item) => (
              <li key={item.bundleId} className="flex items-center justify-between gap-2">
                <Link
                  to="/policies/$policyId"
                  params={{ policyId: item.bundleId }}
                  className="truncate text-primary hover:underline"
                >
                  {item.name}
                </Link>
                <span className="tabular-nums">{item.count}</span>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function ComplianceTrend() {
  const bundles = useQuery(trendBundlesQuery());
  const choices = (bundles.data?.items ?? []).flatMap((item) =>
    item.bundle?.entity?.id ? [item.bundle] : [],
  );
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const bundleId = picked ?? choices[0]?.entity?.id ?? "";
  const trend = useQuery({ ...complianceTrendQuery(bundleId), enabled: bundleId !== "" });
  const points = trendPoints(trend.data?.trend?.points ?? []);
  const percent = compliancePercent(trend.data?.trend?.overall);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-end justify-between gap-2">
        <div>
          <CardTitle className="text-base">Compliance trend</CardTitle>
          <CardDescription>
            Resources that meet the policy over the last 30 days
            {percent !== null && ` · ${percent}% compliant now`}
          </CardDescription>
        </div>
        {choices.length > 0 && (
          <FilterSelect
            label="Policy"
            className="w-64"
            value={bundleId}
            options={choices.map((b) => [b.entity?.id ?? "", b.name] as const)}
            onChange={(value) => setPicked(value || undefined)}
          />
        )}
      </CardHeader>
      <CardContent>
        {bundles.isPending || (bundleId && trend.isPending) ? (
          <Skeleton className="h-64 w-full" />
        ) : trend.isError ? (
          <p className="text-sm text-destructive">The trend could not be loaded.</p>
        ) : points.length === 0 ? (
          <p className="text-sm text-muted-foreground">No compliance evaluations yet.</p>
        ) : (
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <ComplianceChart points={points} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}

export function DashboardPage() {
  const permissions = usePermissions();
  const bundles = useQuery(bundleSummaryQuery());
  const events = useQuery({ ...eventTotalsQuery(), enabled: permissions.has(Permission.EVENTS_READ) });
  const waivers = useQuery({ ...waiverSummaryQuery(), enabled: permissions.has(Permission.WAIVERS_READ) });
  const nothingYet = bundles.data?.total === 0;
  const summary = events.data?.summary;
  const active = events.data?.mostActiveBundles;
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Your guardrails at a glance: what was prevented, what raised an alert, which waivers are active and where resources drifted."
      />
      {bundles.isError ? (
        <EmptyState
          image="table"
          title="The dashboard could not be loaded"
          description="Reload the page to try again."
        />
      ) : nothingYet ? (
        <GettingStarted />
      ) : (
        <>
          <section aria-label="Policies" className="grid gap-3 sm:grid-cols-3">
            <Stat label="Deployed policies" value={bundles.data?.total} />
            <Stat label="In prevent mode" value={bundles.data?.prevent} />
            <Stat label="In alert mode" value={bundles.data?.alert} />
          </section>
          {permissions.has(Permission.EVENTS_READ) && (
            <section aria-label="Events" className="grid gap-3 sm:grid-cols-4">
              <Stat label="Prevented" value={summary?.prevention} />
              <Stat label="Alerts" value={summary?.alerts} />
              <Stat label="Drifts" value={summary?.drifts} />
              <Stat label="Waived" value={summary?.waivers} />
            </section>
          )}
          {permissions.has(Permission.WAIVERS_READ) && (
            <section aria-label="Waivers" className="grid gap-3 sm:grid-cols-3">
              <Stat label="Active waivers" value={waivers.data?.active} />
              <Stat label="Pending waivers" value={waivers.data?.pending} />
              <Stat label="Waivers in total" value={waivers.data?.total} />
            </section>
          )}
          {active && (
            <section aria-label="Most active policies" className="grid gap-3 md:grid-cols-3">
              <MostActive title="Most preventions" items={active.prevented} />
              <MostActive title="Most alerts" items={active.alerted} />
              <MostActive title="Most waived" items={active.waived} />
            </section>
          )}
          <ComplianceTrend />
        </>
      )}
    </>
  );
}
