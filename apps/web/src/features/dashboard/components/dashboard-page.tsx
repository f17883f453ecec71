import type { BundleCount } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { useQuery } from "@tanstack/react-query";
import { Link, type LinkProps } from "@tanstack/react-router";
import { ArrowRightIcon, PlugZapIcon, ShieldCheckIcon, UsersIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { FilterSelect } from "@/components/filter-select";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useAfterFirstPaint } from "@/lib/after-first-paint";
import { formatDateTime } from "@/lib/date-time";
import { Permission, usePermissions } from "@/lib/permissions";
import {
  bundleSummaryQuery,
  complianceTrendQuery,
  connectorCountQuery,
  eventTotalsQuery,
  trendBundlesQuery,
  waiverSummaryQuery,
} from "../api/dashboard-queries";
import { trendFigure, trendPoints } from "../trend-points";

const ComplianceChart = lazy(() => import("./compliance-chart"));

const steps = [
  {
    id: "connect",
    to: "/connectors",
    icon: PlugZapIcon,
    title: "Connect a cloud",
    text: "Add an AWS organisation, an Azure tenant or the built-in sandbox cloud.",
  },
  {
    id: "deploy",
    to: "/policies",
    icon: ShieldCheckIcon,
    title: "Deploy a policy",
    text: "Pick a guardrail from the catalogue and deploy it in alert or prevent mode.",
  },
  {
    id: "invite",
    to: "/team-members",
    icon: UsersIcon,
    title: "Invite your team",
    text: "Give colleagues the role they need, from viewer to administrator.",
  },
] as const;

/** The first steps still to take: connecting a cloud and deploying a policy drop out once done. */
function GettingStarted({ connected, deployed }: { connected: boolean; deployed: boolean }) {
  const todo = steps.filter((step) =>
    step.id === "connect" ? !connected : step.id === "deploy" ? !deployed : true,
  );
  return (
    <section aria-label="Getting started" className="space-y-4">
      <div className="grid gap-4 md:grid-cols-3">
        {todo.map(({ to, icon: Icon, title, text }) => (
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
    </section>
  );
}

/** A figure that opens the list it counts. */
function Stat({
  label,
  value,
  hint,
  link,
}: {
  label: string;
  value: number | undefined;
  hint?: string;
  link: LinkProps;
}) {
  return (
    <Link
      {...link}
      className="group block min-w-0 rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <Card className="h-full py-4 transition-colors group-hover:border-primary/40">
        <CardContent className="px-5">
          <p className="text-xs text-muted-foreground">{label}</p>
          {/* A block, not a paragraph: it holds the skeleton (a block) until the figure is read. */}
          <div className="text-3xl font-semibold tabular-nums">
            {value === undefined ? <Skeleton className="mt-1 h-8 w-12" /> : value}
          </div>
          {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
        </CardContent>
      </Card>
    </Link>
  );
}

function MostActive({ title, items }: { title: string; items: BundleCount[] }) {
  return (
    // A grid item does not shrink below its content by itself: long names wrap inside the card.
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle className="text-sm">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">None yet.</p>
        ) : (
          <ol className="space-y-1 text-sm">
            {items.slice(0, 5).map((item) => (
              <li key={item.bundleId} className="flex items-start justify-between gap-2">
                <Link
                  to="/policies/$policyId"
                  params={{ policyId: item.bundleId }}
                  className="min-w-0 text-primary [overflow-wrap:anywhere] hover:underline"
                  title={item.name}
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

function ComplianceTrend({ painted }: { painted: boolean }) {
  const bundles = useQuery({ ...trendBundlesQuery(), enabled: painted });
  const choices = (bundles.data?.items ?? []).flatMap((item) =>
    item.bundle?.entity?.id ? [item.bundle] : [],
  );
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const bundleId = picked ?? choices[0]?.entity?.id ?? "";
  const trend = useQuery({ ...complianceTrendQuery(bundleId), enabled: painted && bundleId !== "" });
  const points = trendPoints(trend.data?.trend?.points ?? []);
  const figure = trendFigure(points, trend.data?.trend?.overall);
  return (
    <Card className="min-w-0">
      <CardHeader className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">
        <div className="min-w-0">
          <CardTitle className="text-base">Compliance trend</CardTitle>
          <CardDescription>
            Resources governed by the policy chosen here, compliant and not, per day over the last 30 days
            (UTC days). Days without an evaluation are left empty.
          </CardDescription>
          {figure.percent !== null && (
            <p className="mt-1 text-sm" data-testid="compliance-figure">
              <span className="font-semibold">{figure.percent}% compliant</span>: {figure.compliant} of{" "}
              {figure.resources} resources met the policy at their latest evaluation
              {figure.lastDay &&
                ` (last data ${formatDateTime(new Date(`${figure.lastDay}T00:00:00Z`), "UTC")})`}
              {figure.firstDay && `, with data since ${figure.firstDay}`}.
            </p>
          )}
        </div>
        {choices.length > 0 && (
          <FilterSelect
            label="Policy"
            className="w-full sm:w-64"
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
        ) : figure.resources === 0 && !figure.firstDay ? (
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
  // The route's loader has read the policy figures; the other reads start once the page is on
  // screen, so that their calls and answers do not hold back its first paint.
  const painted = useAfterFirstPaint();
  const events = useQuery({
    ...eventTotalsQuery(),
    enabled: painted && permissions.has(Permission.EVENTS_READ),
  });
  const waivers = useQuery({
    ...waiverSummaryQuery(),
    enabled: painted && permissions.has(Permission.WAIVERS_READ),
  });
  const connectors = useQuery({
    ...connectorCountQuery(),
    enabled: painted && permissions.has(Permission.CONNECTORS_READ),
  });
  const deployed = (bundles.data?.total ?? 0) > 0;
  // Without the right to see connectors, a deployed policy proves one is there.
  const connected = (connectors.data?.pagination?.totalItems ?? 0) > 0 || deployed;
  const nothingYet = bundles.data !== undefined && (!deployed || !connected);
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
        <GettingStarted connected={connected} deployed={deployed} />
      ) : (
        <>
          <section aria-label="Policies" className="grid gap-3 sm:grid-cols-3">
            <Stat
              label="Deployed policies"
              value={bundles.data?.total}
              link={{ to: "/policies", search: { view: "deployed" } }}
            />
            <Stat
              label="In prevent mode"
              value={bundles.data?.prevent}
              link={{ to: "/policies", search: { view: "deployed", state: "prevent" } }}
            />
            <Stat
              label="In alert mode"
              value={bundles.data?.alert}
              link={{ to: "/policies", search: { view: "deployed", state: "alert" } }}
            />
          </section>
          {permissions.has(Permission.EVENTS_READ) && (
            <section aria-label="Events" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              <Stat
                label="Prevented"
                value={summary?.prevention}
                link={{ to: "/events", search: { type: "prevented", view: "events" } }}
              />
              <Stat
                label="Alerts"
                value={summary?.alerts}
                link={{ to: "/events", search: { type: "alert", view: "events" } }}
              />
              <Stat
                label="Drifts"
                value={summary?.drifts}
                link={{ to: "/events", search: { view: "events" } }}
              />
              <Stat
                label="Waived"
                value={summary?.waivers}
                link={{ to: "/events", search: { type: "waived", view: "events" } }}
              />
            </section>
          )}
          {permissions.has(Permission.WAIVERS_READ) && (
            <section aria-label="Waivers" className="grid gap-3 sm:grid-cols-3">
              <Stat
                label="Active waivers"
                value={waivers.data?.active}
                link={{ to: "/policies", search: { view: "deployed" } }}
                hint="By policy, on each policy's Waivers tab"
              />
              <Stat
                label="Pending waivers"
                value={waivers.data?.pending}
                link={{ to: "/policies", search: { view: "deployed" } }}
                hint="Awaiting a decision"
              />
              <Stat
                label="Waivers in total"
                value={waivers.data?.total}
                link={{ to: "/policies", search: { view: "deployed" } }}
              />
            </section>
          )}
          {active && (
            <section aria-label="Most active policies" className="grid gap-3 md:grid-cols-3">
              <MostActive title="Most preventions" items={active.prevented} />
              <MostActive title="Most alerts" items={active.alerted} />
              <MostActive title="Most waived" items={active.waived} />
            </section>
          )}
          <ComplianceTrend painted={painted} />
        </>
      )}
    </>
  );
}
