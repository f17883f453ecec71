import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  CreateRequest,
  CreateResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { storedDefinitionMessage } from "../definition-message";
import { requireSlug } from "../definition-query";
import {
  checkDefinition,
  type PolicyDefinitionServiceDeps,
  submittedDocument,
  tenantView,
} from "../definitions";
import { insertTenantDefinition } from "../policy-definition-repository";

export async function create(
  deps: PolicyDefinitionServiceDeps,
  req: CreateRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateResponseSchema>> {
  const { db, catalogue } = deps;
  const caller = requireCaller(ctx);
  const document = submittedDocument(req.policyDefinition);
  const slug = requireSlug(String(document.slug));
  if (catalogue.bySlug.has(slug)) {
    throw new ConnectError(
      `${slug} is a catalogue definition; use Upgrade to replace it for this tenant.`,
      Code.AlreadyExists,
    );
  }
  const view = await tenantView(deps, caller.tenantId);
  const alreadyExists = () =>
    new ConnectError(`This tenant already has a policy definition ${slug}.`, Code.AlreadyExists);
  if (view.bySlug.has(slug)) throw alreadyExists();
  const definition = checkDefinition(catalogue, document, view, "policy_definition.");
  const row = await db.transaction(async (tx) => {
    const inserted = await insertTenantDefinition(tx, caller.tenantId, definition, caller.id);
    if (!inserted) throw alreadyExists();
    await recordAudit(tx, ctx, {
      target: { type: "policy_definition", id: slug, name: definition.display_name },
      after: definition,
    });
    return inserted;
  });
  return { policyDefinition: storedDefinitionMessage(row, view) };
}
