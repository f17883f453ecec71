// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import type { ArmObject, AzureState } from "../state/model";
import { sameScope } from "./scopes";

const TYPE = "Microsoft.Authorization/policyDefinitions";

interface BuiltIn {
  name: string;
  displayName: string;
  description: string;
  mode: "All" | "Indexed";
  category: string;
  version: string;
  parameters: Record<string, unknown>;
  policyRule: unknown;
}

const arrayParameter = (displayName: string, description: string, strongType: string) => ({
  type: "Array",
  metadata: { displayName, description, strongType },
});
const tagName = {
  type: "String",
  metadata: { displayName: "Tag Name", description: "Name of the tag, such as 'environment'" },
};
const RESOURCE_GROUP_TYPE = { field: "type", equals: "Microsoft.Resources/subscriptions/resourceGroups" };

/**
 * Built-in policy definitions under their real names, those Palisade's catalogue mirrors
 * (https://learn.microsoft.com/en-us/azure/governance/policy/samples/built-in-policies, "General"
 * and "Tags"). Built-ins live at the tenant-wide path `/providers/Microsoft.Authorization/
 * policyDefinitions/{name}`, carry `policyType: BuiltIn` and cannot be changed or deleted.
 */
const BUILT_INS: BuiltIn[] = [
  {
    name: "e56962a6-4747-49cd-b67b-bf8b01975c4c",
    displayName: "Allowed locations",
    description:
      "This policy enables you to restrict the locations your organization can specify when deploying resources. Use to enforce your geo-compliance requirements. Excludes resource groups, Microsoft.AzureActiveDirectory/b2cDirectories, and resources that use the 'global' region.",
    mode: "Indexed",
    category: "General",
    version: "1.0.0",
    parameters: {
      listOfAllowedLocations: arrayParameter(
        "Allowed locations",
        "The list of locations that can be specified when deploying resources.",
        "location",
      ),
    },
    policyRule: {
      if: {
        allOf: [
          { field: "location", notIn: "[parameters('listOfAllowedLocations')]" },
          { field: "location", notEquals: "global" },
          { field: "type", notEquals: "Microsoft.AzureActiveDirectory/b2cDirectories" },
        ],
      },
      then: { effect: "deny" },
    },
  },
  {
    name: "e765b5de-1225-4ba3-bd56-1ac6695af988",
    displayName: "Allowed locations for resource groups",
    description:
      "This policy enables you to restrict the locations your organization can create resource groups in. Use to enforce your geo-compliance requirements.",
    mode: "All",
    category: "General",
    version: "1.0.0",
    parameters: {
      listOfAllowedLocations: arrayParameter(
        "Allowed locations",
        "The list of locations that resource groups can be created in.",
        "location",
      ),
    },
    policyRule: {
      if: {
        allOf: [RESOURCE_GROUP_TYPE, { field: "location", notIn: "[parameters('listOfAllowedLocations')]" }],
      },
      then: { effect: "deny" },
    },
  },
  {
    name: "a08ec900-254a-4555-9bf5-e42af04b5c5c",
    displayName: "Allowed resource types",
    description:
      "This policy enables you to specify the resource types that your organization can deploy. Only resource types that support 'tags' and 'location' will be affected by this policy. To restrict all resources please duplicate this policy and change the 'mode' to 'All'.",
    mode: "Indexed",
    category: "General",
    version: "1.0.0",
    parameters: {
      listOfResourceTypesAllowed: arrayParameter(
        "Allowed resource types",
        "The list of resource types that can be deployed.",
        "resourceTypes",
      ),
    },
    policyRule: {
      if: { not: { field: "type", in: "[parameters('listOfResourceTypesAllowed')]" } },
      then: { effect: "deny" },
    },
  },
  {
    name: "6c112d4e-5bc7-47ae-a041-ea2d9dccd749",
    displayName: "Not allowed resource types",
    description:
      "Restrict which resource types can be deployed in your environment. Limiting resource types can reduce the complexity and attack surface of your environment while also helping to manage costs. Compliance results are only shown for non-compliant resources.",
    mode: "All",
    category: "General",
    version: "2.0.0",
    parameters: {
      listOfResourceTypesNotAllowed: arrayParameter(
        "Not allowed resource types",
        "The list of resource types that cannot be deployed.",
        "resourceTypes",
      ),
      effect: {
        type: "string",
        defaultValue: "Deny",
        allowedValues: ["Audit", "Deny", "Disabled"],
        metadata: { displayName: "Effect", description: "Enable or disable the execution of the policy" },
      },
    },
    policyRule: {
      if: {
        allOf: [
          { field: "type", in: "[parameters('listOfResourceTypesNotAllowed')]" },
          { value: "[field('type')]", exists: true },
        ],
      },
      then: { effect: "[parameters('effect')]" },
    },
  },
  {
    name: "871b6d14-10aa-478d-b590-94f262ecfa99",
    displayName: "Require a tag on resources",
    description: "Enforces existence of a tag. Does not apply to resource groups.",
    mode: "Indexed",
    category: "Tags",
    version: "1.0.1",
    parameters: { tagName },
    policyRule: {
      if: { field: "[concat('tags[', parameters('tagName'), ']')]", exists: "false" },
      then: { effect: "deny" },
    },
  },
  {
    name: "96670d01-0a4d-4649-9c89-2d3abc0a5025",
    displayName: "Require a tag on resource groups",
    description: "Enforces existence of a tag on resource groups.",
    mode: "All",
    category: "Tags",
    version: "1.0.0",
    parameters: { tagName },
    policyRule: {
      if: {
        allOf: [
          RESOURCE_GROUP_TYPE,
          { field: "[concat('tags[', parameters('tagName'), ']')]", exists: "false" },
        ],
      },
      then: { effect: "deny" },
    },
  },
];

export const BUILT_IN_DEFINITIONS: readonly ArmObject[] = BUILT_INS.map((b) => ({
  id: `/providers/${TYPE}/${b.name}`,
  type: TYPE,
  name: b.name,
  properties: {
    displayName: b.displayName,
    policyType: "BuiltIn",
    mode: b.mode,
    description: b.description,
    metadata: { version: b.version, category: b.category },
    version: b.version,
    parameters: b.parameters,
    policyRule: b.policyRule,
  },
}));

/** A policy definition by id: one of the tenant's own, or a built-in. */
export function findDefinition(azure: AzureState, id: string): ArmObject | undefined {
  return (
    azure.policyDefinitions.find((d) => sameScope(d.id, id)) ??
    BUILT_IN_DEFINITIONS.find((d) => sameScope(d.id, id))
  );
}
