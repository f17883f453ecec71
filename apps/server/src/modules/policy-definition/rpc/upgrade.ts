import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  UpgradeRequest,
  UpgradeResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { storedDefinitionMessage } from "../definition-message";
import { requireSlug } from "../definition-query";
import {
  checkDefinition,
  type PolicyDefinitionServiceDeps,
  submittedDocument,
  tenantView,
} from "../definitions";
import { upsertTenantDefinition } from "../policy-definition-repository";

/** Replaces a definition for this tenant, whether the catalogue's or the tenant's own. */
export async function upgrade(
  deps: PolicyDefinitionServiceDeps,
  req: UpgradeRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpgradeResponseSchema>> {
  const { db, catalogue } = deps;
  const caller = requireCaller(ctx);
  const document = submittedDocument(req.policyDefinition);
  const slug = requireSlug(String(document.slug));
  const view = await tenantView(deps, caller.tenantId);
  const current = view.bySlug.get(slug);
  if (!current) {
    throw new ConnectError(
      `No policy definition with slug "${slug}" to upgrade; use Create for a new one.`,
      Code.NotFound,
    );
  }
  if (document.enforcer !== current.definition.enforcer) {
    const problem = `must stay ${current.definition.enforcer}, which the bundles of ${slug} are compiled for.`;
    throw invalidArgument(`Invalid policy definition: enforcer: ${problem}`, [
      { field: "policy_definition.enforcer", message: problem },
    ]);
  }
  const definition = checkDefinition(catalogue, document, view, "policy_definition.");
  const row = await db.transaction(async (tx) => {
    const row = await upsertTenantDefinition(tx, caller.tenantId, definition, caller.id);
    await recordAudit(tx, ctx, {
      target: { type: "policy_definition", id: slug },
      after: { replaced: current.own ? "tenant" : "catalogue" },
    });
    return row;
  });
  return { policyDefinition: storedDefinitionMessage(row, view) };
}
