import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ImpactPreview,
  ImpactPreviewSchema,
  ImpactPreviewStatus,
} from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { cloudProviderOf } from "../../rpc/common-message";
import type { StoredScope } from "./bundle-repository";
import { scopeMessage } from "./deployment-message";
import type { ImpactPreviewRow } from "./impact-preview-repository";
import type { ImpactResult } from "./impact-preview-run";

const STATUS: Record<string, ImpactPreviewStatus> = {
  QUEUED: ImpactPreviewStatus.QUEUED,
  RUNNING: ImpactPreviewStatus.RUNNING,
  SUCCEEDED: ImpactPreviewStatus.SUCCEEDED,
  FAILED: ImpactPreviewStatus.FAILED,
};

export function impactPreviewMessage(row: ImpactPreviewRow): ImpactPreview {
  const result = row.result as ImpactResult | null;
  return create(ImpactPreviewSchema, {
    id: row.id,
    status: STATUS[row.status] ?? ImpactPreviewStatus.UNSPECIFIED,
    provider: cloudProviderOf(row.provider),
    policySlug: row.policySlug,
    parameters: row.parameters as JsonObject,
    scopes: (row.scopes as StoredScope[]).map(scopeMessage),
    excludedScopes: (row.excludedScopes as StoredScope[]).map(scopeMessage),
    periodDays: row.periodDays,
    periodStart: row.periodStart ? timestampFromDate(row.periodStart) : undefined,
    periodEnd: row.periodEnd ? timestampFromDate(row.periodEnd) : undefined,
    pagesRead: row.pagesRead,
    recordsEvaluated: row.recordsEvaluated,
    deniedCount: result?.denied ?? 0,
    distinctPrincipals: result?.distinctPrincipals ?? 0,
    topActions: (result?.topActions ?? []).map((c) => ({ value: c.value, count: c.count })),
    topPrincipals: (result?.topPrincipals ?? []).map((c) => ({ value: c.value, count: c.count })),
    topScopes: (result?.topScopes ?? []).map((c) => ({ value: c.value, name: c.name, count: c.count })),
    samples: (result?.samples ?? []).map((s) => ({
      eventId: s.eventId,
      time: timestampFromDate(new Date(s.time)),
      action: s.action,
      principal: s.principal,
      scopeId: s.scopeId,
      scopeName: s.scopeName,
      resource: s.resource,
    })),
    alreadyDeniedCount: result?.alreadyDenied ?? 0,
    notEvaluableCount: result?.notEvaluable ?? 0,
    topNotEvaluable: (result?.topNotEvaluable ?? []).map((c) => ({ value: c.value, count: c.count })),
    nonCompliantResources: result?.nonCompliantResources ?? 0,
    limitations: result?.limitations ?? [],
    error: row.error ?? "",
    createdAt: timestampFromDate(row.createdAt),
    finishedAt: row.finishedAt ? timestampFromDate(row.finishedAt) : undefined,
  });
}
