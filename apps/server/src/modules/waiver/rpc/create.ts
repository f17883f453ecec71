import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import type {
  CreateRequest,
  CreateResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { idempotencyKeyOf } from "../../../rpc/idempotency";
import { recordAuditAs } from "../../audit/audit-api";
import { loadTenantCatalogue } from "../../policy-definition/policy-definition-api";
import { findLiveBundleByKeyAnyTenant } from "../waiver-context-repository";
import { createWaivers } from "../waiver-create";
import type { WaiverServiceDeps } from "../waiver-deps";
import { tenantMaxWaiverHours } from "../waiver-lifecycle";
import { waiverMessage } from "../waiver-message";
import { deploymentsFor, requireRequesterIn, waiverRowsFor } from "../waiver-request";
import { parseCreateInput } from "../waiver-rules";

const createSourceNames: Record<WaiverCreateSource, string> = {
  [WaiverCreateSource.UNSPECIFIED]: "FORM",
  [WaiverCreateSource.SYSTEM]: "SYSTEM",
  [WaiverCreateSource.FORM]: "FORM",
  [WaiverCreateSource.TEAMS]: "TEAMS",
};

/** A waiver request for a policy key, in whatever tenant owns the key. */
export async function create(
  deps: WaiverServiceDeps,
  req: CreateRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const input = parseCreateInput(req);
  const idempotencyKey = idempotencyKeyOf(ctx);
  const createSource = createSourceNames[req.createSource];
  if (createSource === undefined) {
    throw invalidArgument("create_source must be SYSTEM, FORM or TEAMS.", [
      { field: "create_source", message: "must be SYSTEM, FORM or TEAMS." },
    ]);
  }

  const bundle = await findLiveBundleByKeyAnyTenant(db, input.key);
  if (!bundle) {
    throw new ConnectError(
      `No policy has the key ${input.key}. Check the key in the deny message.`,
      Code.NotFound,
    );
  }
  await requireRequesterIn(db, caller, bundle);
  const maxHours = await tenantMaxWaiverHours(db, bundle.tenantId);
  if (input.durationSeconds > maxHours * 3_600) {
    throw invalidArgument(
      `This tenant allows waivers of at most ${maxHours} hours; choose a shorter duration.`,
      [{ field: "duration", message: `at most ${maxHours} hours.` }],
    );
  }
  const definition = (await loadTenantCatalogue(db, deps.catalogue, bundle.tenantId)).bySlug.get(
    bundle.policySlug,
  )?.definition;
  const targets = await deploymentsFor(db, bundle, input.target, {
    outsidePrincipals: definition?.enforcer === "aws_rcp",
  });
  const auto = bundle.waiverApprovalMode !== "MANUAL";
  const created = await createWaivers(deps, {
    bundle,
    rows: waiverRowsFor(targets),
    createSource,
    requester: {
      name: caller.name,
      // E-mail for people; the API key's id for integrations.
      identifier: caller.email ?? caller.id,
      userId: caller.kind === "user" ? caller.id : null,
    },
    comment: input.comment,
    durationSeconds: input.durationSeconds,
    approval: auto ? { approved: true } : { approved: false },
    idempotencyKey,
    reason: "waiver activated",
    // The audit record belongs to the tenant that owns the key, where the waiver lives.
    audit: async (tx, waivers) => {
      for (const waiver of waivers) {
        await recordAuditAs(
          tx,
          ctx,
          { tenantId: bundle.tenantId, type: caller.kind, id: caller.id, name: caller.name },
          {
            target: { type: "waiver", id: waiver.id, name: waiver.policyKey },
            after: {
              policyKey: waiver.policyKey,
              status: waiver.status,
              durationSeconds: waiver.durationSeconds,
              scope: waiver.scope ?? waiver.resource ?? waiver.principalArn,
              comment: waiver.comment,
            },
          },
        );
      }
    },
  });
  const [first] = created.waivers;
  if (!first) throw new ConnectError("The waiver was not stored.", Code.Internal);
  return { waiver: waiverMessage(first) };
}
