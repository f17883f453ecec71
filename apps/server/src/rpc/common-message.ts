import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";

/** A stored provider name ("aws", "AZURE", ...) as the contract's enum; case does not matter. */
export function cloudProviderOf(name: string): CloudProvider {
  switch (name.toLowerCase()) {
    case "aws":
      return CloudProvider.AWS;
    case "azure":
      return CloudProvider.AZURE;
    default:
      return CloudProvider.UNSPECIFIED;
  }
}

/** A stored hierarchy level ("AWS_OU", "AZURE_SUBSCRIPTION", ...): stored names are the enum's. */
export function scopeTypeOf(name: string): ScopeType {
  const value = ScopeType[name as keyof typeof ScopeType];
  return typeof value === "number" ? value : ScopeType.UNSPECIFIED;
}
