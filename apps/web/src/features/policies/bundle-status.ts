import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { type ProductErrorText, productErrorText } from "@/lib/product-error-text";

type Variant = "secondary" | "warning" | "success" | "destructive";

export const deploymentStatusLabels: Record<DeploymentStatus, { label: string; variant: Variant }> = {
  [DeploymentStatus.UNSPECIFIED]: { label: "Unknown", variant: "secondary" },
  [DeploymentStatus.PENDING]: { label: "Pending", variant: "secondary" },
  [DeploymentStatus.EVALUATING]: { label: "Evaluating", variant: "warning" },
  [DeploymentStatus.DEPLOYED]: { label: "Deployed", variant: "success" },
  [DeploymentStatus.DELETED]: { label: "Deleted", variant: "secondary" },
  [DeploymentStatus.FAILED]: { label: "Failed", variant: "destructive" },
  [DeploymentStatus.PROPAGATING]: { label: "Propagating", variant: "warning" },
};

export const modeLabels: Record<DeploymentMode, string> = {
  [DeploymentMode.UNSPECIFIED]: "—",
  [DeploymentMode.PREVENT]: "Prevent",
  [DeploymentMode.ALERT]: "Alert",
};

/**
 * What a stored product error code means to people: its title and what happened and what to do;
 * a code this client has no text for is shown by its name ("DEPLOYMENT_SYNC_FAILED" as
 * "Deployment sync failed").
 */
export function errorCodeText(code: ProductErrorCode): ProductErrorText {
  const known = productErrorText(code);
  if (known) return known;
  const words = (ProductErrorCode[code] ?? "UNSPECIFIED").toLowerCase().replaceAll("_", " ");
  return { title: words.charAt(0).toUpperCase() + words.slice(1), message: "" };
}
