import type { AwsCloudProvider } from "../cloud-provider";
import { type AwsSessionOptions, createAwsClients } from "./aws-clients";
import { listAwsHierarchy } from "./aws-hierarchy";
import { createScpOperations } from "./aws-scps";
import { verifyAwsConnection } from "./aws-verify";
import { lookupCloudTrailPages, readCloudTrailEvents } from "./cloudtrail-events";

/** What Palisade needs to reach one AWS organisation. */
export interface AwsConnection extends AwsSessionOptions {
  managementAccountId: string;
  /** Console links for the hierarchy; the sandbox has no console. */
  consoleLinks: boolean;
  /** LookupEvents calls per second; CloudTrail's 2 unless the peer states another rate. */
  lookupEventsPerSecond?: number;
}

/** IAM actions the connector role needs, shown in the setup instructions. */
export const AWS_REQUIRED_ACTIONS = [
  "organizations:DescribeOrganization",
  "organizations:ListRoots",
  "organizations:ListOrganizationalUnitsForParent",
  "organizations:ListAccountsForParent",
  "organizations:ListPolicies",
  "organizations:ListPoliciesForTarget",
  "organizations:DescribePolicy",
  "organizations:ListTargetsForPolicy",
  "organizations:CreatePolicy",
  "organizations:UpdatePolicy",
  "organizations:DeletePolicy",
  "organizations:AttachPolicy",
  "organizations:DetachPolicy",
  "cloudtrail:LookupEvents",
] as const;

export function createAwsProvider(connection: AwsConnection): AwsCloudProvider {
  const clients = createAwsClients(connection);
  return {
    provider: "aws",
    verify: () => verifyAwsConnection(clients, connection),
    listHierarchy: () => listAwsHierarchy(clients, connection.consoleLinks),
    readAuditEvents: (cursor, options) => readCloudTrailEvents(clients, cursor, options),
    // SCPs have no audit mode, so there is no compliance state to read: ALERT deployments are
    // evaluated from the audit stream instead.
    readCompliance: async () => [],
    lookupAuditPages: (since, onPage) =>
      lookupCloudTrailPages(clients, {
        since,
        onPage,
        intervalMs: connection.lookupEventsPerSecond ? 1000 / connection.lookupEventsPerSecond : undefined,
      }),
    ...createScpOperations(clients),
    close: clients.close,
  };
}
