import type { AzureResource } from "@palisade/policy-engine/evaluators/azure/azure-resource";
import type {
  AzureManagementGroup,
  AzurePrincipal,
  AzureResourceGroup,
  AzureState,
  AzureSubscription,
} from "./model";
import type { Random } from "./random";

const AZURE_GROUPS: { name: string; displayName: string; parent: string | null }[] = [
  { name: "contoso", displayName: "Contoso", parent: null },
  { name: "platform", displayName: "Platform", parent: "contoso" },
  { name: "connectivity", displayName: "Connectivity", parent: "platform" },
  { name: "identity", displayName: "Identity", parent: "platform" },
  { name: "landing-zones", displayName: "Landing zones", parent: "contoso" },
  { name: "corp", displayName: "Corp", parent: "landing-zones" },
  { name: "online", displayName: "Online", parent: "landing-zones" },
  { name: "sandboxes", displayName: "Sandboxes", parent: "contoso" },
];

const AZURE_SUBSCRIPTIONS: { name: string; group: string; location: string }[] = [
  { name: "platform-connectivity", group: "connectivity", location: "westeurope" },
  { name: "platform-identity", group: "identity", location: "westeurope" },
  { name: "corp-prod", group: "corp", location: "westeurope" },
  { name: "corp-dev", group: "corp", location: "northeurope" },
  { name: "online-prod", group: "online", location: "eastus" },
  { name: "online-dev", group: "online", location: "eastus2" },
  { name: "sandbox-01", group: "sandboxes", location: "westus2" },
];

export const AZURE_HUMANS = ["alice", "bob", "carol", "dave"];
export const AZURE_APPS = ["ci-pipeline", "data-ingest"];
export const AZURE_DOMAIN = "contoso.example";

/** The tenant, its hierarchy, principals and resources; the token signing key is drawn later. */
export function seedAzureTenant(rnd: Random): Omit<AzureState, "tokenSigningKey"> {
  const tenantId = rnd.uuid();
  const managementGroups: AzureManagementGroup[] = [
    { name: tenantId, displayName: "Tenant Root Group", parentName: null },
    ...AZURE_GROUPS.map((g) => ({
      name: g.name,
      displayName: g.displayName,
      parentName: g.parent ?? tenantId,
    })),
  ];
  const subscriptions: AzureSubscription[] = AZURE_SUBSCRIPTIONS.map((s) => ({
    subscriptionId: rnd.uuid(),
    displayName: s.name,
    managementGroupName: s.group,
  }));
  const resourceGroups: AzureResourceGroup[] = [];
  const azureResources: AzureResource[] = [];
  subscriptions.forEach((sub, i) => {
    const location = AZURE_SUBSCRIPTIONS[i]!.location;
    for (const rg of [`rg-${sub.displayName}-app`, `rg-${sub.displayName}-data`]) {
      resourceGroups.push({ subscriptionId: sub.subscriptionId, name: rg, location });
    }
    azureResources.push(...seedAzureResources(rnd, sub, location));
  });

  const azurePrincipals: AzurePrincipal[] = [
    ...AZURE_HUMANS.map((h) => ({
      objectId: rnd.uuid(),
      displayName: h[0]!.toUpperCase() + h.slice(1),
      type: "User" as const,
      upn: `${h}@${AZURE_DOMAIN}`,
    })),
    ...AZURE_APPS.map((a) => ({
      objectId: rnd.uuid(),
      displayName: a,
      type: "ServicePrincipal" as const,
      clientId: rnd.uuid(),
      clientSecret: rnd.chars(34, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789~._-"),
    })),
  ];
  const connector = {
    clientId: rnd.uuid(),
    clientSecret: rnd.chars(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789~._-"),
    objectId: rnd.uuid(),
  };
  azurePrincipals.push({
    objectId: connector.objectId,
    displayName: "palisade-connector",
    type: "ServicePrincipal",
    clientId: connector.clientId,
    clientSecret: connector.clientSecret,
  });

  return {
    tenantId,
    managementGroups,
    subscriptions,
    resourceGroups,
    resources: azureResources,
    principals: azurePrincipals,
    connector,
    policyDefinitions: [],
    policyAssignments: [],
    policyExemptions: [],
    activityLog: [],
    policyStates: [],
  };
}

function seedAzureResources(rnd: Random, sub: AzureSubscription, location: string): AzureResource[] {
  const base = `/subscriptions/${sub.subscriptionId}/resourceGroups/rg-${sub.displayName}`;
  const short = sub.displayName.replace(/[^a-z0-9]/g, "").slice(0, 12);
  const app = `${base}-app/providers`;
  const data = `${base}-data/providers`;
  return [
    {
      id: `${data}/Microsoft.Storage/storageAccounts/st${short}${rnd.chars(4)}`,
      type: "Microsoft.Storage/storageAccounts",
      name: "",
      location,
      kind: "StorageV2",
      sku: { name: "Standard_LRS", tier: "Standard" },
      properties: {
        supportsHttpsTrafficOnly: true,
        minimumTlsVersion: "TLS1_2",
        allowBlobPublicAccess: false,
      },
    },
    {
      id: `${app}/Microsoft.Network/networkSecurityGroups/nsg-${sub.displayName}`,
      type: "Microsoft.Network/networkSecurityGroups",
      name: "",
      location,
      properties: { securityRules: [] },
    },
    {
      id: `${app}/Microsoft.Network/publicIPAddresses/pip-${sub.displayName}-lb`,
      type: "Microsoft.Network/publicIPAddresses",
      name: "",
      location,
      sku: { name: "Standard" },
      properties: { publicIPAllocationMethod: "Static" },
    },
    {
      id: `${app}/Microsoft.Network/networkInterfaces/nic-${sub.displayName}-vm1`,
      type: "Microsoft.Network/networkInterfaces",
      name: "",
      location,
      properties: {
        ipConfigurations: [{ name: "ipconfig1", properties: { privateIPAllocationMethod: "Dynamic" } }],
      },
    },
    {
      id: `${app}/Microsoft.Compute/virtualMachines/vm-${sub.displayName}-1`,
      type: "Microsoft.Compute/virtualMachines",
      name: "",
      location,
      properties: {
        hardwareProfile: { vmSize: "Standard_D2s_v5" },
        storageProfile: { osDisk: { osType: "Linux" } },
      },
    },
    {
      id: `${app}/Microsoft.Compute/disks/disk-${sub.displayName}-1-os`,
      type: "Microsoft.Compute/disks",
      name: "",
      location,
      sku: { name: "Premium_LRS" },
      properties: { diskSizeGB: 64, encryption: { type: "EncryptionAtRestWithPlatformKey" } },
    },
    {
      id: `${data}/Microsoft.Sql/servers/sql-${sub.displayName}`,
      type: "Microsoft.Sql/servers",
      name: "",
      location,
      properties: { minimalTlsVersion: "1.2", publicNetworkAccess: "Disabled" },
    },
    {
      id: `${data}/Microsoft.KeyVault/vaults/kv-${short}-${rnd.chars(4)}`,
      type: "Microsoft.KeyVault/vaults",
      name: "",
      location,
      properties: { enableSoftDelete: true, enablePurgeProtection: true, enableRbacAuthorization: true },
    },
  ].map((r) => ({ ...r, name: r.id.slice(r.id.lastIndexOf("/") + 1) }));
}
