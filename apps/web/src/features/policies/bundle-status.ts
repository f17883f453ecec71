import { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode, DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";

type Variant = "secondary" | "warning" | "success" | "destructive";

export const deploymentStatusLabels: Record<DeploymentStatus, { label: string; variant: Variant }> = {
  [DeploymentStatus.UNSPECIFIED]: { label: "Unknown", variant: "secondary" },
  [DeploymentStatus.PENDING]: { label: "Pending", variant: "secondary" },
  [DeploymentStatus.EVALUATING]: { label: "Evaluating", variant: "warning" },
  [DeploymentStatus.DEPLOYED]: { label: "Deployed", variant: "success" },
  [DeploymentStatus.DELETED]: { label: "Deleted", variant: "secondary" },
  [DeploymentStatus.FAILED]: { label: "Failed", variant: "destructive" },
};

export const modeLabels: Record<DeploymentMode, string> = {
  [DeploymentMode.UNSPECIFIED]: "—",
  [DeploymentMode.PREVENT]: "Prevent",
  [DeploymentMode.ALERT]: "Alert",
};

/** The product error code as people read it: "DEPLOYMENT_SYNC_FAILED" becomes "Deployment sync failed". */
export function errorCodeLabel(code: ProductErrorCode): string {
  const name = ProductErrorCode[code] ?? "UNSPECIFIED";
  const words = name.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
