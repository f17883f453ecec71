import type { AnalyticsWaiverRow } from "./waiver-analytics-repository";

export type Suggestion = "KEEP" | "EXCLUDE_SCOPE" | "CHANGE_PARAMETER";

export interface PolicyAnalytics {
  bundleId: string;
  bundleName: string;
  policyKey: string;
  policySlug: string;
  requests: number;
  /** Approved (automatically or by a reviewer) or rejected. */
  decided: number;
  approvalRate: number;
  medianHoursAsked: number;
  neverUsed: number;
  topScope: string;
  /** The top scope's name in the synced hierarchy; its id when the hierarchy does not hold it. */
  topScopeName: string;
  topScopeRequests: number;
  repeatedlyWaived: boolean;
  suggestion: Suggestion;
  suggestionText: string;
}

/** Waived this often in the period, a policy is "waived again and again". */
export const REPEATED_REQUESTS = 3;
/** Share of a repeatedly waived policy's requests on one scope that points at that scope. */
const ONE_SCOPE_SHARE = 0.6;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Ended without letting anything through: expired, or cancelled after it was approved. */
function endedUnused(row: AnalyticsWaiverRow, now: Date): boolean {
  if (row.used || !row.expiresAt) return false;
  return (
    row.status === "EXPIRED" ||
    row.status === "CANCELLED" ||
    (row.status === "ACTIVE" && row.expiresAt <= now)
  );
}

function suggest(
  stats: Omit<PolicyAnalytics, "suggestion" | "suggestionText">,
): Pick<PolicyAnalytics, "suggestion" | "suggestionText"> {
  if (!stats.repeatedlyWaived) {
    return { suggestion: "KEEP", suggestionText: "Waived now and then: keep the policy as it is." };
  }
  if (stats.topScopeRequests / stats.requests >= ONE_SCOPE_SHARE) {
    return {
      suggestion: "EXCLUDE_SCOPE",
      suggestionText: `${stats.topScopeRequests} of ${stats.requests} waivers were for ${stats.topScopeName}: consider excluding that scope from the bundle.`,
    };
  }
  return {
    suggestion: "CHANGE_PARAMETER",
    suggestionText: `Waived ${stats.requests} times across several scopes: a parameter of the policy probably does not fit how it is used; review its parameters.`,
  };
}

/** Per policy: requests, approval rate, median duration asked, unused waivers, and what to do. */
export function waiverAnalytics(rows: AnalyticsWaiverRow[], now = new Date()): PolicyAnalytics[] {
  const byBundle = new Map<string, AnalyticsWaiverRow[]>();
  for (const row of rows) byBundle.set(row.bundleId, [...(byBundle.get(row.bundleId) ?? []), row]);
  const result: PolicyAnalytics[] = [];
  for (const [bundleId, group] of byBundle) {
    const first = group[0] as AnalyticsWaiverRow;
    const approved = group.filter((r) => r.expiresAt !== null).length;
    const rejected = group.filter((r) => r.status === "REJECTED").length;
    const scopes = new Map<string, number>();
    for (const row of group) scopes.set(row.target, (scopes.get(row.target) ?? 0) + 1);
    const [topScope, topScopeRequests] = [...scopes.entries()].sort(
      (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
    )[0] ?? ["", 0];
    const stats = {
      bundleId,
      bundleName: first.bundleName,
      policyKey: first.policyKey,
      policySlug: first.policySlug,
      requests: group.length,
      decided: approved + rejected,
      approvalRate: approved + rejected === 0 ? 0 : approved / (approved + rejected),
      medianHoursAsked: median(group.map((r) => r.durationSeconds / 3_600)),
      neverUsed: group.filter((r) => endedUnused(r, now)).length,
      topScope,
      topScopeName: group.find((r) => r.target === topScope)?.targetName ?? topScope,
      topScopeRequests,
      repeatedlyWaived: group.length >= REPEATED_REQUESTS,
    };
    result.push({ ...stats, ...suggest(stats) });
  }
  return result.sort((a, b) => b.requests - a.requests || a.bundleName.localeCompare(b.bundleName));
}
