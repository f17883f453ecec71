// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import type { AzureResource } from "@palisade/policy-engine/evaluators/azure/azure-resource";
import type { AzureAssignment } from "@palisade/policy-engine/evaluators/azure/evaluate-assignments";

const SUBSCRIPTION = "/subscriptions/6f1c2d3e-0000-4000-8000-00000000beef";
const STORAGE = "Microsoft.Storage/storageAccounts";
const NIC = "Microsoft.Network/networkInterfaces";

export const aliases: AliasTable = {
  [STORAGE]: {
    [`${STORAGE}/supportsHttpsTrafficOnly`]: "properties.supportsHttpsTrafficOnly",
    [`${STORAGE}/minimumTlsVersion`]: "properties.minimumTlsVersion",
    [`${STORAGE}/allowBlobPublicAccess`]: "properties.allowBlobPublicAccess",
  },
  [NIC]: {
    [`${NIC}/ipconfigurations[*]`]: "properties.ipConfigurations[*]",
    [`${NIC}/ipconfigurations[*].publicIpAddress.id`]:
      "properties.ipConfigurations[*].properties.publicIPAddress.id",
  },
};

const effectParameter = { effect: { defaultValue: "Deny" } };

export const allowedLocationsRule = {
  if: {
    allOf: [
      { field: "location", notIn: "[parameters('listOfAllowedLocations')]" },
      { field: "location", notEquals: "global" },
      { field: "type", notEquals: "Microsoft.AzureActiveDirectory/b2cDirectories" },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};

export const httpsOnlyRule = {
  if: {
    allOf: [
      { field: "type", equals: STORAGE },
      {
        anyOf: [
          { field: `${STORAGE}/supportsHttpsTrafficOnly`, exists: false },
          { field: `${STORAGE}/supportsHttpsTrafficOnly`, equals: false },
        ],
      },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};

export const publicIpRule = {
  if: {
    allOf: [
      { field: "type", equals: NIC },
      {
        count: {
          field: `${NIC}/ipconfigurations[*]`,
          where: { field: `${NIC}/ipconfigurations[*].publicIpAddress.id`, exists: true },
        },
        greater: 0,
      },
    ],
  },
  then: { effect: "[parameters('effect')]" },
};

export const ruleParameters = {
  effect: "Deny",
  listOfAllowedLocations: ["westeurope", "northeurope", "germanywestcentral"],
};

const rg = (name: string) => `${SUBSCRIPTION}/resourceGroups/${name}`;

function storage(name: string, location: string, httpsOnly: boolean | undefined): AzureResource {
  return {
    id: `${rg("rg-data")}/providers/${STORAGE}/${name}`,
    type: STORAGE,
    name,
    location,
    kind: "StorageV2",
    sku: { name: "Standard_GRS" },
    tags: { owner: "data-team", env: "prod" },
    properties: {
      ...(httpsOnly === undefined ? {} : { supportsHttpsTrafficOnly: httpsOnly }),
      minimumTlsVersion: "TLS1_2",
      allowBlobPublicAccess: false,
      networkAcls: { defaultAction: "Deny", ipRules: [{ value: "203.0.113.0/24", action: "Allow" }] },
    },
  };
}

function nic(name: string, location: string, publicIps: number, privateIps: number): AzureResource {
  const configs = [
    ...Array.from({ length: publicIps }, (_, i) => ({
      name: `public${i}`,
      properties: {
        privateIPAddress: `10.1.0.${i + 4}`,
        publicIPAddress: {
          id: `${rg("rg-net")}/providers/Microsoft.Network/publicIPAddresses/pip-${name}-${i}`,
        },
        subnet: { id: `${rg("rg-net")}/providers/Microsoft.Network/virtualNetworks/vnet/subnets/web` },
      },
    })),
    ...Array.from({ length: privateIps }, (_, i) => ({
      name: `private${i}`,
      properties: {
        privateIPAddress: `10.1.1.${i + 4}`,
        subnet: { id: `${rg("rg-net")}/providers/Microsoft.Network/virtualNetworks/vnet/subnets/app` },
      },
    })),
  ];
  return {
    id: `${rg("rg-net")}/providers/${NIC}/${name}`,
    type: NIC,
    name,
    location,
    tags: { owner: "platform" },
    properties: { ipConfigurations: configs, enableIPForwarding: false },
  };
}

export const resources: AzureResource[] = [
  storage("stsecure01", "westeurope", true),
  storage("stlegacy02", "westeurope", false),
  storage("stnoflag03", "northeurope", undefined),
  storage("stusa04", "eastus", true),
  nic("nic-web", "westeurope", 1, 1),
  nic("nic-app", "westeurope", 0, 3),
  nic("nic-edge", "eastus2", 2, 0),
  {
    id: `${rg("rg-app")}/providers/Microsoft.Web/sites/portal`,
    type: "Microsoft.Web/sites",
    name: "portal",
    location: "germanywestcentral",
    kind: "app,linux",
    properties: { httpsOnly: true },
  },
];

export const rules = [allowedLocationsRule, httpsOnlyRule, publicIpRule];

function assignment(
  key: string,
  slug: string,
  policyRule: unknown,
  parameters: AzureAssignment["parameters"],
): AzureAssignment {
  return {
    id: `${SUBSCRIPTION}/providers/Microsoft.Authorization/policyAssignments/palisade-${key}`,
    scope: SUBSCRIPTION,
    notScopes: [rg("rg-sandbox")],
    policyDefinition: {
      id: `${SUBSCRIPTION}/providers/Microsoft.Authorization/policyDefinitions/palisade-${slug}`,
      policyRule,
      parameters: effectParameter,
    },
    parameters,
    nonComplianceMessages: [
      {
        message: `Denied by Palisade policy ${key}. Request a waiver: https://palisade.example/req?k=${key}`,
      },
    ],
  };
}

export const assignments: AzureAssignment[] = [
  assignment("B4GT8NC", "allowed-locations", allowedLocationsRule, {
    effect: { value: "Deny" },
    listOfAllowedLocations: { value: ruleParameters.listOfAllowedLocations },
  }),
  assignment("D9KW3RF", "storage-https-only", httpsOnlyRule, { effect: { value: "Deny" } }),
  assignment("F2MZ7QT", "nic-no-public-ip", publicIpRule, { effect: { value: "Audit" } }),
];
