import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ScopeSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type Recommendation,
  RecommendationKind,
  RecommendationSchema,
  RecommendationSource,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { cloudProviderOf, scopeTypeOf } from "../../rpc/common-message";
import { modeOfName } from "../deployment/deployment-api";
import type { RecommendationRow } from "./recommendation-repository";
import type { FindingScope } from "./recommendation-rules";

const KINDS: Record<string, RecommendationKind> = {
  framework_gap: RecommendationKind.FRAMEWORK_GAP,
  observed_activity: RecommendationKind.OBSERVED_ACTIVITY,
  drift: RecommendationKind.DRIFT,
  often_waived: RecommendationKind.OFTEN_WAIVED,
  unguarded_scope: RecommendationKind.UNGUARDED_SCOPE,
  manual: RecommendationKind.MANUAL,
};

export function recommendationMessage(row: RecommendationRow): Recommendation {
  return create(RecommendationSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
    title: row.title,
    description: row.description,
    policySlugs: row.policySlugs,
    provider: cloudProviderOf(row.provider),
    archived: row.archivedAt !== null,
    source: row.source === "manual" ? RecommendationSource.MANUAL : RecommendationSource.SYSTEM,
    createdBy: row.source === "manual" ? (row.createdBy ?? "") : "",
    affectedResourcesCount: row.affectedResourcesCount,
    kind: KINDS[row.kind] ?? RecommendationKind.UNSPECIFIED,
    suggestedScopes: (row.scopes as FindingScope[]).map((scope) =>
      create(ScopeSchema, {
        provider: cloudProviderOf(row.provider),
        externalId: scope.externalId,
        name: scope.name,
        type: scopeTypeOf(scope.type),
      }),
    ),
    suggestedMode: modeOfName(row.mode),
    score: row.score,
    installedAt: row.installedAt ? timestampFromDate(row.installedAt) : undefined,
    installedBundleIds: row.installedBundleIds,
  });
}
