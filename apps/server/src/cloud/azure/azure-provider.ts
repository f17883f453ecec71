import type { AzureCloudProvider } from "../cloud-provider";
import { readActivityLog } from "./azure-audit";
import { type AzureSessionOptions, createAzureClients } from "./azure-clients";
import { readComplianceStates } from "./azure-compliance";
import { listAzureHierarchy } from "./azure-hierarchy";
import { createPolicyObjectOperations } from "./azure-policy-objects";
import { verifyAzureConnection } from "./azure-verify";

/** What Palisade needs to reach one Azure (Entra ID) tenant. */
export interface AzureConnection extends AzureSessionOptions {
  /** The tenant root group, named after the tenant id unless given. */
  rootManagementGroupId?: string;
  consoleLinks: boolean;
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
    verify: () => verifyAzureConnection(clients, connection, rootGroup),
    listHierarchy: () => listAzureHierarchy(clients, connection, rootGroup),
    readAuditEvents: (cursor, options) => readActivityLog(clients, rootGroup, cursor, options),
    readCompliance: (options) => readComplianceStates(clients, rootGroup, options),
    ...createPolicyObjectOperations(clients),
    close: clients.close,
  };
}
