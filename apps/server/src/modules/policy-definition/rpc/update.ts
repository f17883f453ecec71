import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { Category, Score } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type {
  UpdateRequest,
  UpdateResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import {
  enumName,
  frameworkDocument,
  noticeDocument,
  storedDefinitionMessage,
  urlDocument,
} from "../definition-message";
import { requireSlug } from "../definition-query";
import {
  checkDefinition,
  definitionNotFound,
  type PolicyDefinitionServiceDeps,
  tenantView,
} from "../definitions";
import { findTenantDefinition, upsertTenantDefinition } from "../policy-definition-repository";

/** The descriptive fields an Update may change, as catalogue-format fields. */
function updatedFields(req: UpdateRequest): Record<string, unknown> {
  const changes: Record<string, unknown> = {
    display_name: req.displayName,
    description: req.description,
    feedback_message_template: req.feedbackMessageTemplate,
    is_visible: req.isVisible,
    is_preventable: req.isPreventable,
    category: req.category === undefined ? undefined : (enumName(Category, req.category) ?? null),
    security_score:
      req.securityScore === undefined ? undefined : (enumName(Score, req.securityScore) ?? null),
    seamless_score:
      req.seamlessScore === undefined ? undefined : (enumName(Score, req.seamlessScore) ?? null),
    warnings: req.warnings?.values,
    initiative_slugs: req.initiativeSlugs?.values,
    affected_resource_types: req.affectedResourceTypes?.values,
    notices: req.notices?.items.map(noticeDocument),
    frameworks: req.frameworks?.items.map(frameworkDocument),
    further_reading_urls: req.furtherReadingUrls?.items.map(urlDocument),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

/** Changes descriptive fields of the tenant's own version of a definition. */
export async function update(
  deps: PolicyDefinitionServiceDeps,
  req: UpdateRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateResponseSchema>> {
  const { db, catalogue } = deps;
  const caller = requireCaller(ctx);
  const slug = requireSlug(req.slug);
  const current = await findTenantDefinition(db, caller.tenantId, slug);
  if (!current) {
    if (catalogue.bySlug.has(slug)) {
      throw new ConnectError(
        `${slug} is a catalogue definition; replace it for this tenant with Upgrade, then Update that version.`,
        Code.FailedPrecondition,
      );
    }
    throw definitionNotFound(slug);
  }
  const changes = updatedFields(req);
  const view = await tenantView(deps, caller.tenantId);
  const { cases: _cases, ...document } = { ...current.definition, ...changes };
  // The request carries the changed fields at its top level, under their catalogue names.
  const definition = checkDefinition(catalogue, document, view, "");
  const row = await db.transaction(async (tx) => {
    const row = await upsertTenantDefinition(tx, caller.tenantId, definition, caller.id);
    await recordAudit(tx, ctx, {
      target: { type: "policy_definition", id: slug },
      after: { fields: Object.keys(changes) },
    });
    return row;
  });
  return { policyDefinition: storedDefinitionMessage(row, view) };
}
