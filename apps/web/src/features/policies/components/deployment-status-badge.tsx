import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { Badge } from "@/components/ui/badge";
import { deploymentPropagationText } from "@/lib/propagation";
import { deploymentStatusLabels } from "../bundle-status";

/**
 * A bundle's or deployment's status. PROPAGATING says why the guardrail is not enforced yet and
 * for about how long, as a tooltip and to screen readers.
 */
export function DeploymentStatusBadge({
  status,
  propagationEndsAt,
  testId,
}: {
  status: DeploymentStatus;
  propagationEndsAt?: Timestamp;
  testId?: string;
}) {
  const { label, variant } = deploymentStatusLabels[status];
  const explanation =
    status === DeploymentStatus.PROPAGATING
      ? deploymentPropagationText(propagationEndsAt ? timestampDate(propagationEndsAt) : undefined)
      : undefined;
  return (
    <Badge variant={variant} title={explanation} aria-description={explanation} data-testid={testId}>
      {label}
    </Badge>
  );
}
