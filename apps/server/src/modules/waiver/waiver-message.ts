import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  CloudEntityDetailsSchema,
  CloudProvider,
  ProductErrorCode,
  ScopeSchema,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type Waiver,
  WaiverApprovalType,
  WaiverCreateSource,
  WaiverDeploymentStatus,
  WaiverSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type { WaiverView } from "./waiver-repository";
import { describeTarget, reportedStatus, scopeTypeOf, statusOfName, type WaiverTarget } from "./waiver-rules";

const productErrorCodes = new Map(
  Object.entries(ProductErrorCode).filter(([, v]) => typeof v === "number") as [string, ProductErrorCode][],
);

function providerOf(name: string): CloudProvider {
  const upper = name.toUpperCase();
  if (upper === "AWS") return CloudProvider.AWS;
  if (upper === "AZURE") return CloudProvider.AZURE;
  return CloudProvider.UNSPECIFIED;
}

function targetOf(row: WaiverView): WaiverTarget | undefined {
  if (row.principalArn) return { kind: "principal", arn: row.principalArn };
  if (row.resource) return { kind: "resource", externalId: row.resource };
  if (row.scope) return { kind: "scope", externalId: row.scope };
  return undefined;
}

export function waiverMessage(row: WaiverView): Waiver {
  const status = reportedStatus(row.status, row.deploymentStatus);
  const target = targetOf(row);
  const provider = providerOf(row.provider);
  return create(WaiverSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
    policyDeployment: { id: row.deploymentId, name: row.bundleName, policySlug: row.policySlug },
    target:
      target?.kind === "principal"
        ? { case: "principalArn", value: target.arn }
        : target?.kind === "resource"
          ? { case: "resource", value: create(CloudEntityDetailsSchema, { externalId: target.externalId }) }
          : target?.kind === "scope"
            ? {
                case: "targetScope",
                value: create(ScopeSchema, {
                  provider,
                  externalId: target.externalId,
                  type: scopeTypeOf(target.externalId),
                }),
              }
            : { case: undefined },
    policyKey: row.policyKey,
    createSource:
      WaiverCreateSource[row.createSource as keyof typeof WaiverCreateSource] ?? WaiverCreateSource.FORM,
    requester: { name: row.requesterName, identifier: row.requesterIdentifier, comment: row.comment },
    expiresAt: row.expiresAt ? timestampFromDate(row.expiresAt) : undefined,
    duration: BigInt(row.durationSeconds),
    scope: target ? describeTarget(target) : "",
    scopeName: target?.kind === "scope" ? (row.scopeName ?? "") : "",
    ticketReference: row.ticketReference,
    managedBy: row.managedBy ?? undefined,
    status: statusOfName(status),
    reviewer: row.reviewerName
      ? { name: row.reviewerName, identifier: row.reviewerIdentifier ?? "" }
      : undefined,
    reviewedAt: row.reviewedAt ? timestampFromDate(row.reviewedAt) : undefined,
    cancelledAt: row.cancelledAt ? timestampFromDate(row.cancelledAt) : undefined,
    approvalType: row.approvalType === "MANUAL" ? WaiverApprovalType.MANUAL : WaiverApprovalType.AUTO,
    deploymentStatus:
      WaiverDeploymentStatus[row.deploymentStatus as keyof typeof WaiverDeploymentStatus] ??
      WaiverDeploymentStatus.PENDING,
    errorCode: (row.errorCode && productErrorCodes.get(row.errorCode)) || ProductErrorCode.UNSPECIFIED,
    propagationEndsAt:
      status === "PROPAGATING" && row.propagationEndsAt
        ? timestampFromDate(row.propagationEndsAt)
        : undefined,
  });
}
