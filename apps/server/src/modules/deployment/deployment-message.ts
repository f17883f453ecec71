import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ProductErrorCode, type Scope, ScopeSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type DeploymentBundle,
  DeploymentBundleSchema,
  DeploymentMode,
  DeploymentStatus,
  type ExtendedDeploymentBundle,
  ExtendedDeploymentBundleSchema,
  type ExtendedPolicyDeployment,
  ExtendedPolicyDeploymentSchema,
  type PolicyDeployment,
  PolicyDeploymentSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { cloudProviderOf, scopeTypeOf } from "../../rpc/common-message";
import { invalidField } from "../../rpc/errors";
import type { BundleCounts } from "./bundle-query-repository";
import type { BundleRow, StoredScope } from "./bundle-repository";
import type { DeploymentRow } from "./deployment-repository";

export type ModeName = "PREVENT" | "ALERT";

export function modeOfName(name: string): DeploymentMode {
  return name === "PREVENT" ? DeploymentMode.PREVENT : name === "ALERT" ? DeploymentMode.ALERT : 0;
}

export function modeName(mode: DeploymentMode, field = "mode"): ModeName {
  if (mode === DeploymentMode.PREVENT) return "PREVENT";
  if (mode === DeploymentMode.ALERT) return "ALERT";
  throw invalidField(field, "choose PREVENT or ALERT.");
}

/** `DELETING` (a scope being removed) reads as PENDING: the contract has no such state. */
export function statusOfName(name: string): DeploymentStatus {
  const value = DeploymentStatus[name as keyof typeof DeploymentStatus];
  if (typeof value === "number") return value;
  return name === "DELETING" ? DeploymentStatus.PENDING : DeploymentStatus.UNSPECIFIED;
}

export function statusName(status: DeploymentStatus, field: string): string {
  const name = DeploymentStatus[status];
  if (status === DeploymentStatus.UNSPECIFIED || typeof name !== "string") {
    throw invalidField(field, "use PENDING, EVALUATING, PROPAGATING, DEPLOYED, DELETED or FAILED.");
  }
  return name;
}

export function errorCodeOfName(name: string | null | undefined): ProductErrorCode {
  if (!name) return ProductErrorCode.UNSPECIFIED;
  const value = ProductErrorCode[name as keyof typeof ProductErrorCode];
  return typeof value === "number" ? value : ProductErrorCode.DEPLOYMENT_SYNC_FAILED;
}

export function approvalModeOfName(name: string): WaiverApprovalMode {
  return name === "MANUAL" ? WaiverApprovalMode.MANUAL : WaiverApprovalMode.AUTO;
}

export function scopeMessage(scope: StoredScope): Scope {
  return create(ScopeSchema, {
    provider: cloudProviderOf(scope.provider),
    externalId: scope.externalId,
    name: scope.name,
    type: scopeTypeOf(scope.type),
    connectorId: scope.connectorId,
  });
}

const BUNDLE_FIELDS: ReadonlySet<string> = new Set(DeploymentBundleSchema.fields.map((field) => field.name));

/** Reads an exclude_mask of DeploymentBundle field names (snake_case or lowerCamelCase). */
export function excludedBundleFields(paths: readonly string[] | undefined): ReadonlySet<string> {
  const excluded = new Set<string>();
  for (const path of paths ?? []) {
    const name = path.trim().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (!BUNDLE_FIELDS.has(name)) {
      throw invalidField("exclude_mask", `${path} is not a field of DeploymentBundle.`);
    }
    if (name === "entity") {
      throw invalidField("exclude_mask", "the entity (id) of a bundle is always returned.");
    }
    excluded.add(name);
  }
  return excluded;
}

export function bundleMessage(row: BundleRow, excluded: ReadonlySet<string> = new Set()): DeploymentBundle {
  const all: Record<string, () => unknown> = {
    provider: () => cloudProviderOf(row.provider),
    key: () => row.key,
    scopes: () => (row.scopes as StoredScope[]).map(scopeMessage),
    excluded_scopes: () => (row.excludedScopes as StoredScope[]).map(scopeMessage),
    mode: () => modeOfName(row.mode),
    status: () => statusOfName(row.status),
    error_codes: () => row.errorCodes.map(errorCodeOfName),
    feedback_message: () => row.feedbackMessage,
    parameters: () => row.parameters as JsonObject,
    policy_slug: () => row.policySlug,
    affected_resource_types: () => row.affectedResourceTypes,
    main_resource_type: () => row.mainResourceType,
    name: () => row.name,
    is_visible: () => row.isVisible,
    namespace: () => row.namespace ?? undefined,
    created_by: () => row.createdBy,
    edited_by: () => row.editedBy ?? undefined,
    edited_at: () => (row.editedAt ? timestampFromDate(row.editedAt) : undefined),
    waiver_settings: () => ({ approvalMode: approvalModeOfName(row.waiverApprovalMode) }),
    propagation_ends_at: () =>
      row.status === "PROPAGATING" && row.propagationEndsAt
        ? timestampFromDate(row.propagationEndsAt)
        : undefined,
    managed_by: () => row.managedBy ?? undefined,
  };
  const init: Record<string, unknown> = {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
  };
  for (const field of DeploymentBundleSchema.fields) {
    const value = all[field.name];
    if (value && !excluded.has(field.name)) init[field.localName] = value();
  }
  return create(DeploymentBundleSchema, init as Parameters<typeof create<typeof DeploymentBundleSchema>>[1]);
}

export function extendedBundleMessage(
  row: BundleRow,
  counts: BundleCounts,
  excluded?: ReadonlySet<string>,
): ExtendedDeploymentBundle {
  return create(ExtendedDeploymentBundleSchema, {
    bundle: bundleMessage(row, excluded),
    preventionsCount: counts.preventions,
    driftsCount: counts.drifts,
    waiversCount: counts.waivers,
    activeWaiversCount: counts.activeWaivers,
  });
}

export function deploymentMessage(row: DeploymentRow): PolicyDeployment {
  return create(PolicyDeploymentSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
    key: row.key,
    bundleId: row.bundleId,
    scope: scopeMessage(row.scope as StoredScope),
    mode: modeOfName(row.mode),
    status: statusOfName(row.status),
    errorCode: errorCodeOfName(row.errorCode),
    parameters: row.parameters as JsonObject,
    policySlug: row.policySlug,
    name: row.name,
    isVisible: row.isVisible,
    createdBy: row.createdBy,
    propagationEndsAt:
      row.status === "PROPAGATING" && row.propagationEndsAt
        ? timestampFromDate(row.propagationEndsAt)
        : undefined,
  });
}

export function extendedDeploymentMessage(
  row: DeploymentRow,
  counts: BundleCounts,
): ExtendedPolicyDeployment {
  return create(ExtendedPolicyDeploymentSchema, {
    deployment: deploymentMessage(row),
    preventionsCount: counts.preventions,
    driftsCount: counts.drifts,
    waiversCount: counts.waivers,
    activeWaiversCount: counts.activeWaivers,
  });
}
