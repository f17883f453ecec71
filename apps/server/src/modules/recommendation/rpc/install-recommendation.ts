import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { ErrorDetailSchema, ScopeSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import type {
  InstallRecommendationRequest,
  InstallRecommendationResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { cloudProviderOf, scopeTypeOf } from "../../../rpc/common-message";
import { invalidArgument, invalidField } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import {
  bundleMessage,
  modeName,
  type PreparedBundle,
  prepareBundle,
  storeBundle,
  tenantReads,
} from "../../deployment/deployment-api";
import { type RecommendationServiceDeps, requireRecommendation } from "../recommendation-deps";
import { recommendationMessage } from "../recommendation-message";
import { markInstalled } from "../recommendation-repository";
import type { FindingScope } from "../recommendation-rules";

const MAX_SCOPES = 100;

/**
 * Deploys the recommendation's policies, one bundle each, to the given scopes (its suggested
 * ones when none are given) in the given mode (its suggested one by default), with the
 * policies' default parameters; then records the bundles on it and archives it. Every bundle
 * is checked before any is stored, so a policy that needs parameters stops the whole install.
 */
export async function installRecommendation(
  deps: RecommendationServiceDeps,
  req: InstallRecommendationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof InstallRecommendationResponseSchema>> {
  const caller = requireCaller(ctx);
  const row = await requireRecommendation(deps.db, caller.tenantId, req.id);
  if (row.installedAt)
    throw new ConnectError(
      `"${row.title}" is already installed; its bundles are on the Policies page.`,
      Code.FailedPrecondition,
    );
  const mode =
    req.mode === DeploymentMode.UNSPECIFIED ? (row.mode as "ALERT" | "PREVENT") : modeName(req.mode);
  const scopes =
    req.scopes.length > 0
      ? req.scopes
      : (row.scopes as FindingScope[]).map((scope) =>
          create(ScopeSchema, {
            provider: cloudProviderOf(row.provider),
            externalId: scope.externalId,
            name: scope.name,
            type: scopeTypeOf(scope.type),
          }),
        );
  if (scopes.length === 0) throw invalidField("scopes", "choose at least one scope to deploy to.");
  if (scopes.length > MAX_SCOPES) throw invalidField("scopes", `at most ${MAX_SCOPES}.`);

  const reads = tenantReads(deps, caller.tenantId);
  const view = await reads.catalogue();
  const prepared: PreparedBundle[] = [];
  for (const slug of row.policySlugs) {
    const definition = view.bySlug.get(slug)?.definition;
    if (!definition)
      throw new ConnectError(
        `The policy ${slug} is no longer in the catalogue; archive this recommendation.`,
        Code.FailedPrecondition,
      );
    try {
      prepared.push(
        await prepareBundle(deps, reads, {
          name: definition.display_name,
          definition,
          scopes,
          excludedScopes: [],
          mode,
          parameters: undefined,
          isVisible: true,
          namespace: null,
          waiverApprovalMode: undefined,
          createdBy: caller.name,
        }),
      );
    } catch (error) {
      const cause = ConnectError.from(error);
      if (cause.code !== Code.InvalidArgument) throw error;
      const fields = cause.findDetails(ErrorDetailSchema)[0]?.fieldViolations ?? [];
      throw invalidArgument(
        `${definition.display_name}: ${cause.rawMessage} Install it from the policy form to choose its parameters and scopes.`,
        fields.map((f) => ({ field: f.field, message: `${definition.display_name}: ${f.message}` })),
      );
    }
  }
  const bundles: Awaited<ReturnType<typeof storeBundle>>[] = [];
  for (const bundle of prepared) bundles.push(await storeBundle(deps, reads, bundle));
  const installed =
    (await markInstalled(
      deps.db,
      caller.tenantId,
      row.id,
      bundles.map((b) => b.id),
    )) ?? row;
  await deps.db.transaction((tx) =>
    recordAudit(tx, ctx, {
      target: { type: "recommendation", id: row.id, name: row.title },
      after: {
        title: row.title,
        mode,
        scopes: scopes.map((s) => s.externalId),
        keys: bundles.map((b) => b.key),
      },
    }),
  );
  return { bundles: bundles.map((b) => bundleMessage(b)), recommendation: recommendationMessage(installed) };
}
