import type { ComplianceRecord } from "../cloud-provider";
import type { AzureClients } from "./azure-clients";

const POLICY_INSIGHTS_API_VERSION = "2019-10-01";

interface PolicyStateJson {
  resourceId?: string;
  policyAssignmentId?: string;
  policyDefinitionId?: string;
  isCompliant?: boolean;
  complianceState?: string;
  timestamp?: string;
  subscriptionId?: string;
}

/**
 * The latest compliance state of each resource for each of Palisade's assignments, read below the
 * root group one assignment at a time (`$filter=policyAssignmentId eq '…'`); without assignment
 * ids, every state below the root group.
 *
 * The query and each `@odata.nextLink` are POSTs, as the service documents
 * (https://learn.microsoft.com/en-us/rest/api/policy/policy-states/list-query-results-for-management-group,
 * https://learn.microsoft.com/en-us/rest/api/policy/policy-states/next-link); arm-policyinsights
 * follows the link with GET, which the service refuses (azure-rest-api-specs#15136,
 * azure-sdk-for-js#36686), so the pages are requested here.
 */
export async function readComplianceStates(
  clients: AzureClients,
  rootGroup: string,
  options?: { since?: Date; assignmentIds?: string[] },
): Promise<ComplianceRecord[]> {
  const assignments = options?.assignmentIds
    ? [...new Map(options.assignmentIds.map((id) => [id.toLowerCase(), id])).values()]
    : [undefined];
  const perAssignment = await Promise.all(
    assignments.map((assignmentId) => {
      // No `$top`: it bounds the whole query, not a page; the service pages at 1,000 states.
      const query = new URLSearchParams({ "api-version": POLICY_INSIGHTS_API_VERSION });
      if (options?.since) query.set("$from", options.since.toISOString());
      if (assignmentId) query.set("$filter", `policyAssignmentId eq '${assignmentId.replaceAll("'", "''")}'`);
      const url = `${clients.armEndpoint}/providers/Microsoft.Management/managementGroups/${encodeURIComponent(rootGroup)}/providers/Microsoft.PolicyInsights/policyStates/latest/queryResults?${query}`;
      return clients.collect((settings) =>
        clients.nextLinkPages<PolicyStateJson>(
          { url, method: "POST", nextLinkName: "@odata.nextLink" },
          settings,
        ),
      );
    }),
  );
  return perAssignment.flat().map((s) => ({
    resourceId: s.resourceId ?? "",
    policyAssignmentId: s.policyAssignmentId ?? "",
    policyDefinitionId: s.policyDefinitionId ?? "",
    compliant: s.isCompliant ?? s.complianceState?.toLowerCase() === "compliant",
    time: s.timestamp ? new Date(s.timestamp) : new Date(0),
    subscriptionId: s.subscriptionId,
  }));
}
