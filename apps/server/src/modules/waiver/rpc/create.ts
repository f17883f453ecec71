import { Code, ConnectError } from "@connectrpc/connect";
import { WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { callContext, requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { idempotencyKeyOf } from "../../../rpc/idempotency";
import { writeAudit } from "../../audit/audit-log";
import { findLiveBundleByKeyAnyTenant } from "../waiver-context-repository";
import { createWaivers } from "../waiver-create";
import type { WaiverRpc, WaiverServiceDeps } from "../waiver-deps";
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
export function create(deps: WaiverServiceDeps): WaiverRpc["create"] {
  const { db } = deps;
  return async (req, ctx) => {
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
    const targets = await deploymentsFor(db, bundle, input.target);
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
    });
    const [first] = created.waivers;
    if (!first) throw new ConnectError("The waiver was not stored.", Code.Internal);
    if (!created.replayed) {
      // The audit record belongs to the tenant that owns the key, where the waiver lives.
      const keyContext = { ...callContext(ctx), caller: { ...caller, tenantId: bundle.tenantId } };
      for (const waiver of created.waivers) {
        await writeAudit(db, keyContext, {
          action: "WaiverService.Create",
          targetType: "waiver",
          targetId: waiver.id,
          details: {
            policyKey: waiver.policyKey,
            status: waiver.status,
            durationSeconds: waiver.durationSeconds,
            scope: waiver.scope ?? waiver.resource ?? waiver.principalArn,
          },
        });
      }
    }
    return { waiver: waiverMessage(first) };
  };
}
