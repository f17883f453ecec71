import type { HandlerContext } from "@connectrpc/connect";
import type { Database } from "../../db/database";
import { type CallContext, callContext } from "../../rpc/call-context";
import { insertAuditRecord } from "./audit-repository";

export interface AuditEntry {
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
}

/** Records a change made through an RPC. Never put secrets in `details`. */
export async function writeAudit(db: Database, context: CallContext, entry: AuditEntry): Promise<void> {
  const { caller } = context;
  if (!caller) throw new Error("An audited change needs a caller");
  await insertAuditRecord(db, {
    tenantId: caller.tenantId,
    actorType: caller.kind,
    actorId: caller.id,
    actorName: caller.name,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details ?? {},
    ipAddress: context.ip || null,
  });
}

/**
 * Records the change made by the RPC being handled; the action is the contract's name of the
 * method ("WaiverService.Create"), so every audit record names what was called the same way.
 */
export async function auditCall(
  db: Database,
  ctx: HandlerContext,
  entry: Omit<AuditEntry, "action">,
): Promise<void> {
  await writeAudit(db, callContext(ctx), { action: `${ctx.service.name}.${ctx.method.name}`, ...entry });
}

/** Records a change Palisade made on its own (a scheduled job), in the tenant it concerns. */
export async function writeSystemAudit(db: Database, tenantId: string, entry: AuditEntry): Promise<void> {
  await insertAuditRecord(db, {
    tenantId,
    actorType: "system",
    actorName: "Palisade",
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details ?? {},
  });
}
