import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  Category,
  Enforcer,
  type PolicyDefinition,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";

/** How the catalogue's policy definitions are named on every page that lists them. */
export const categoryLabels: Record<Category, string> = {
  [Category.UNSPECIFIED]: "Uncategorised",
  [Category.OTHER]: "Other",
  [Category.NETWORK_ACCESS]: "Network access",
  [Category.DATA_PROTECTION]: "Data protection",
  [Category.ENCRYPTION]: "Encryption",
  [Category.IDENTITY]: "Identity",
};

export const stateLabels: Record<
  PolicyDefinitionState,
  { label: string; variant: "secondary" | "warning" | "success" }
> = {
  [PolicyDefinitionState.UNSPECIFIED]: { label: "Not installed", variant: "secondary" },
  [PolicyDefinitionState.NOT_INSTALLED]: { label: "Not installed", variant: "secondary" },
  [PolicyDefinitionState.ALERT]: { label: "Alert", variant: "warning" },
  [PolicyDefinitionState.PREVENT]: { label: "Prevent", variant: "success" },
};

/** The cloud a definition is enforced in. */
export function providerLabel(definition: PolicyDefinition): "AWS" | "Azure" {
  if (
    definition.enforcer === Enforcer.AWS_SCP ||
    definition.enforcer === Enforcer.AWS_RCP ||
    definition.enforcer === Enforcer.AWS_DECLARATIVE_EC2
  )
    return "AWS";
  if (definition.enforcer === Enforcer.AZURE_POLICY) return "Azure";
  return definition.supportedProvider === CloudProvider.AWS ? "AWS" : "Azure";
}
