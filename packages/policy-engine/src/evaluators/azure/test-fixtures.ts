import type { AliasTable } from "./alias-table";
import type { AzureResource } from "./azure-resource";

export const SUBSCRIPTION = "/subscriptions/00000000-0000-0000-0000-000000000001";

export const aliases: AliasTable = {
  "Microsoft.Storage/storageAccounts": {
    "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly": "properties.supportsHttpsTrafficOnly",
    "Microsoft.Storage/storageAccounts/minimumTlsVersion": "properties.minimumTlsVersion",
    "Microsoft.Storage/storageAccounts/sku.name": "sku.name",
    "Microsoft.Storage/storageAccounts/networkAcls.defaultAction": "properties.networkAcls.defaultAction",
    "Microsoft.Storage/storageAccounts/networkAcls.ipRules": "properties.networkAcls.ipRules",
    "Microsoft.Storage/storageAccounts/networkAcls.ipRules[*]": "properties.networkAcls.ipRules[*]",
    "Microsoft.Storage/storageAccounts/networkAcls.ipRules[*].value":
      "properties.networkAcls.ipRules[*].value",
    "Microsoft.Storage/storageAccounts/networkAcls.ipRules[*].action":
      "properties.networkAcls.ipRules[*].action",
  },
  "Microsoft.Network/networkInterfaces": {
    "Microsoft.Network/networkInterfaces/ipconfigurations[*]": "properties.ipConfigurations[*]",
    "Microsoft.Network/networkInterfaces/ipconfigurations[*].publicIpAddress.id":
      "properties.ipConfigurations[*].properties.publicIPAddress.id",
  },
  "Microsoft.Network/networkSecurityGroups": {
    "Microsoft.Network/networkSecurityGroups/securityRules[*]": "properties.securityRules[*]",
    "Microsoft.Network/networkSecurityGroups/securityRules[*].direction":
      "properties.securityRules[*].properties.direction",
    "Microsoft.Network/networkSecurityGroups/securityRules[*].destinationPortRanges[*]":
      "properties.securityRules[*].properties.destinationPortRanges[*]",
  },
};

export function storageAccount(overrides: Partial<AzureResource> = {}): AzureResource {
  return {
    id: `${SUBSCRIPTION}/resourceGroups/rg-app/providers/Microsoft.Storage/storageAccounts/stapp`,
    type: "Microsoft.Storage/storageAccounts",
    name: "stapp",
    location: "westeurope",
    kind: "StorageV2",
    tags: { Environment: "prod", "cost.center": "42" },
    sku: { name: "Standard_LRS" },
    properties: {
      supportsHttpsTrafficOnly: true,
      minimumTlsVersion: "TLS1_2",
      networkAcls: {
        defaultAction: "Deny",
        ipRules: [
          { value: "203.0.113.0/24", action: "Allow" },
          { value: "198.51.100.7", action: "Allow" },
        ],
      },
    },
    ...overrides,
  };
}

export function networkInterface(publicIpIds: (string | undefined)[]): AzureResource {
  return {
    id: `${SUBSCRIPTION}/resourceGroups/rg-app/providers/Microsoft.Network/networkInterfaces/nic1`,
    type: "Microsoft.Network/networkInterfaces",
    name: "nic1",
    location: "westeurope",
    properties: {
      ipConfigurations: publicIpIds.map((id, i) => ({
        name: `ipconfig${i}`,
        properties: id === undefined ? { privateIPAddress: `10.0.0.${i + 4}` } : { publicIPAddress: { id } },
      })),
    },
  };
}
