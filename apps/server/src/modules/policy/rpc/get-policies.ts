import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetPoliciesRequest,
  GetPoliciesResponseSchema,
} from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { policyUsage } from "../../deployment/deployment-api";
import {
  definitionMessage,
  loadTenantCatalogue,
  SUMMARY_EXCLUDED,
  sortDefinitions,
} from "../../policy-definition/policy-definition-api";
import type { PolicyServiceDeps } from "../policies";
import { policyMatcher } from "../policy-filter";

/** The tenant's policies: the catalogue joined with its bundles. */
export async function getPolicies(
  deps: PolicyServiceDeps,
  req: GetPoliciesRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetPoliciesResponseSchema>> {
  const { db, catalogue } = deps;
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const matches = policyMatcher(req.filter);
  const [view, usage] = await Promise.all([
    loadTenantCatalogue(db, catalogue, caller.tenantId),
    policyUsage(db, caller.tenantId),
  ]);
  const matching = view.definitions.filter((entry) => entry.definition.is_visible && matches(entry));
  const sorted = sortDefinitions(matching, req.orderBy, req.pagination?.order ?? 0);
  const page = sorted.slice(window.offset, window.offset + window.limit);
  return {
    items: page.map((entry) => {
      const used = usage.get(entry.definition.slug);
      return {
        definition: definitionMessage(
          entry.definition,
          { state: entry.state, createdAt: entry.createdAt },
          SUMMARY_EXCLUDED,
        ),
        state: entry.state,
        bundlesCount: used?.bundles ?? 0,
        preventBundlesCount: used?.prevent ?? 0,
        alertBundlesCount: used?.alert ?? 0,
        preventionsCount: used?.preventions ?? 0,
        driftsCount: used?.drifts ?? 0,
        activeWaiversCount: used?.activeWaivers ?? 0,
      };
    }),
    pagination: pageResponse(sorted.length, window),
  };
}
