import type { AzureCloudProvider } from "../cloud-provider";
import { ACTIVITY_LOG_LAG_SECONDS, readActivityLog } from "./azure-audit";
import { type AzureSessionOptions, createAzureClients } from "./azure-clients";
import { readComplianceStates } from "./azure-compliance";
import { listAzureHierarchy } from "./azure-hierarchy";
import { createPolicyObjectOperations } from "./azure-policy-objects";
import { verifyAzureConnection } from "./azure-verify";

/**
 * "It takes around five minutes for the assignment to be applied to the defined scope"
 * (https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers);
 * an exemption is honoured by the same evaluation. "Around" can be more, so Palisade waits twice
 * that before it shows a new assignment DEPLOYED or a waiver ACTIVE: never earlier than Azure.
 */
export const AZURE_POLICY_PROPAGATION_SECONDS = 600;

/** What Palisade needs to reach one Azure (Entra ID) tenant. */
export interface AzureConnection extends AzureSessionOptions {
  /** The tenant root group, named after the tenant id unless given. */
  rootManagementGroupId?: string;
  consoleLinks: boolean;
  /** How long the cloud takes to enforce a policy change; AZURE_POLICY_PROPAGATION_SECONDS unless it states its own (the sandbox). */
  policyPropagationSeconds?: number;
  /** The most an Activity Log event waits to be listed; ACTIVITY_LOG_LAG_SECONDS unless it states its own (the sandbox). */
  activityLogLagSeconds?: number;
}

/** Built-in roles the app registration needs, shown in the setup instructions. */
export const AZURE_REQUIRED_ROLES = [
  {
    roleName: "Resource Policy Contributor",
    reason: "Create policy definitions, assignments and exemptions (guardrails and waivers).",
  },
  {
    roleName: "Management Group Reader",
    reason: "Read the management group and subscription hierarchy.",
  },
  {
    roleName: "Reader",
    reason: "Read resource groups, the Activity Log and policy compliance states.",
  },
] as const;

export function createAzureProvider(connection: AzureConnection): AzureCloudProvider {
  const clients = createAzureClients(connection);
  const rootGroup = connection.rootManagementGroupId ?? connection.tenantId;
  return {
    provider: "azure",
    policyPropagationSeconds: connection.policyPropagationSeconds ?? AZURE_POLICY_PROPAGATION_SECONDS,
    activityLogLagSeconds: connection.activityLogLagSeconds ?? ACTIVITY_LOG_LAG_SECONDS,
    verify: () => verifyAzureConnection(clients, connection, rootGroup),
    listHierarchy: () => listAzureHierarchy(clients, connection, rootGroup),
    readAuditEvents: (cursor, options) => readActivityLog(clients, rootGroup, cursor, options),
    readCompliance: (options) => readComplianceStates(clients, rootGroup, options),
    ...createPolicyObjectOperations(clients),
    close: clients.close,
  };
}
