import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  MarkRecommendationInstalledRequest,
  MarkRecommendationInstalledResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { type FieldProblem, invalidArgument, invalidField } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { findBundle } from "../../deployment/deployment-api";
import { type RecommendationServiceDeps, requireRecommendation } from "../recommendation-deps";
import { recommendationMessage } from "../recommendation-message";
import { markInstalled } from "../recommendation-repository";

/** Records bundles deployed from the policy form for this recommendation, and archives it. */
export async function markRecommendationInstalled(
  deps: RecommendationServiceDeps,
  req: MarkRecommendationInstalledRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof MarkRecommendationInstalledResponseSchema>> {
  const caller = requireCaller(ctx);
  const row = await requireRecommendation(deps.db, caller.tenantId, req.id);
  const ids = [...new Set(req.bundleIds.map((id) => id.trim()).filter(Boolean))];
  if (ids.length === 0) throw invalidField("bundle_ids", "name the bundles deployed for it.");
  const problems: FieldProblem[] = [];
  const slugs = new Set<string>();
  for (const [index, id] of ids.entries()) {
    const bundle = await findBundle(deps.db, caller.tenantId, id);
    if (!bundle || bundle.deletedAt) {
      problems.push({
        field: `bundle_ids[${index}]`,
        message: `no deployed bundle ${id.slice(0, 128)} in this tenant.`,
      });
      continue;
    }
    slugs.add(bundle.policySlug);
  }
  if (problems.length === 0 && !row.policySlugs.some((slug) => slugs.has(slug)))
    problems.push({
      field: "bundle_ids",
      message: `none of these bundles deploys a policy of "${row.title}".`,
    });
  if (problems.length > 0)
    throw invalidArgument(problems.map((p) => `${p.field}: ${p.message}`).join(" "), problems);
  const installed = await deps.db.transaction(async (tx) => {
    const installed =
      (await markInstalled(tx, caller.tenantId, row.id, [...new Set([...row.installedBundleIds, ...ids])])) ??
      row;
    await recordAudit(tx, ctx, {
      target: { type: "recommendation", id: row.id },
      after: { title: row.title, bundleIds: ids },
    });
    return installed;
  });
  return { recommendation: recommendationMessage(installed) };
}
