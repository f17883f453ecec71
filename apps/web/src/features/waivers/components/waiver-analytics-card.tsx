import {
  type PolicyWaiverAnalytics,
  WaiverSuggestion,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { ANALYTICS_DAYS, waiverAnalyticsQuery } from "../api/waiver-analytics-queries";

const suggestionLabels: Record<WaiverSuggestion, string> = {
  [WaiverSuggestion.UNSPECIFIED]: "",
  [WaiverSuggestion.KEEP]: "Keep as is",
  [WaiverSuggestion.EXCLUDE_SCOPE]: "Exclude that scope",
  [WaiverSuggestion.CHANGE_PARAMETER]: "Change a parameter",
};

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** The share approved of the decided requests; none decided yet is not "0%". */
export function approvedFigure(policy: Pick<PolicyWaiverAnalytics, "decided" | "approvalRate">): string {
  return policy.decided === 0 ? "no decisions yet" : percent(policy.approvalRate);
}

function hours(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return `${rounded} h`;
}

function Figures({ policy }: { policy: PolicyWaiverAnalytics }) {
  const figures: [string, string][] = [
    ["Requests", String(policy.requests)],
    ["Approved", approvedFigure(policy)],
    ["Median asked", hours(policy.medianHoursAsked)],
    ["Never used", String(policy.neverUsed)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PolicyRow({ policy, linked }: { policy: PolicyWaiverAnalytics; linked: boolean }) {
  const flagged = policy.suggestion !== WaiverSuggestion.KEEP;
  return (
    <li className="space-y-2 py-3" data-testid="waiver-analytics-row">
      <div className="flex flex-wrap items-center gap-2">
        {linked ? (
          <Link
            to="/policies/$policyId"
            params={{ policyId: policy.bundleId }}
            search={{ tab: "waivers" }}
            className="min-w-0 break-words font-medium hover:underline"
          >
            {policy.bundleName}
          </Link>
        ) : (
          <span className="min-w-0 break-words font-medium">{policy.bundleName}</span>
        )}
        <span className="text-xs text-muted-foreground">{policy.policyKey}</span>
        {policy.repeatedlyWaived && <Badge variant="warning">Waived again and again</Badge>}
      </div>
      <Figures policy={policy} />
      <p className={flagged ? "text-sm" : "text-sm text-muted-foreground"}>
        <span className="font-medium">{suggestionLabels[policy.suggestion]}:</span> {policy.suggestionText}
      </p>
    </li>
  );
}

/**
 * What the waivers of the last 30 days say per policy: how often they are asked for and granted,
 * for how long, whether they were used, and what to change when a policy is waived again and again.
 */
export function WaiverAnalyticsCard({ bundleId = "", limit = 5 }: { bundleId?: string; limit?: number }) {
  const permissions = usePermissions();
  const allowed = permissions.has(Permission.WAIVERS_READ);
  const query = useQuery({ ...waiverAnalyticsQuery(bundleId), enabled: allowed });
  if (!allowed) return null;
  const policies = query.data?.policies ?? [];
  return (
    <Card className="min-w-0" aria-label="Waiver analytics">
      <CardHeader>
        <CardTitle>Waiver analytics</CardTitle>
        <CardDescription>
          Waivers requested in the last {ANALYTICS_DAYS} days
          {bundleId ? "" : ", most requested policies first"}. "Never used" counts waivers that ended without
          letting any action through.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : query.isError ? (
          <p className="text-sm text-destructive">{describeError(query.error).message}</p>
        ) : policies.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No waivers were requested in the last {ANALYTICS_DAYS} days.
          </p>
        ) : (
          <ul className="divide-y">
            {policies.slice(0, limit).map((policy) => (
              <PolicyRow key={policy.bundleId} policy={policy} linked={!bundleId} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
