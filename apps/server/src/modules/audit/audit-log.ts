import type { HandlerContext } from "@connectrpc/connect";
import type { Transaction } from "../../db/database";
import { callContext } from "../../rpc/call-context";
import { auditValue, boundedText } from "./audit-redaction";
import { appendAuditRecord } from "./audit-repository";

/** Header a pipeline sends to say where a change made by code came from, e.g. "prod.yaml@3f2a9c1". */
export const SOURCE_HEADER = "x-palisade-source";
export const MAX_SOURCE_LENGTH = 300;
export const MAX_USER_AGENT_LENGTH = 512;

export interface AuditTarget {
  /** "bundle", "waiver", "member", "api_key", "connector", "tenant"... */
  type: string;
  id: string;
  /** What a person recognises it by (a bundle's name, a member's e-mail). */
  name?: string | null;
}

export interface AuditChange {
  target: AuditTarget;
  /** The target before and after the change; secret fields are redacted whatever they are named in. */
  before?: unknown;
  after?: unknown;
}

export type AuditActorType = "user" | "api_key" | "chat" | "system" | "anonymous";

/** Who acted, when the call's caller is not the one (a chat approver, someone signing in). */
export interface AuditActor {
  tenantId: string;
  type: AuditActorType;
  id?: string | null;
  name?: string | null;
}

/** The contract's name of the method being handled, e.g. "TeamService.ChangeRole". */
export function procedureOf(ctx: HandlerContext): string {
  return `${ctx.service.name}.${ctx.method.name}`;
}

/**
 * Records the change the RPC being handled makes, by its caller, in the transaction that makes
 * it: the record commits with the change or not at all. The action is the method's name.
 */
export async function recordAudit(tx: Transaction, ctx: HandlerContext, change: AuditChange): Promise<void> {
  const { caller } = callContext(ctx);
  if (!caller) throw new Error("An audited change needs a caller; use recordAuditAs for public methods");
  await recordAuditAs(
    tx,
    ctx,
    { tenantId: caller.tenantId, type: caller.kind, id: caller.id, name: caller.name },
    change,
  );
}

/**
 * Records a change to the caller's own account (a session ended) in the tenant they act in; a
 * person who belongs to no tenant yet has no audit log, and the change is recorded nowhere.
 */
export async function recordAccountAudit(
  tx: Transaction,
  ctx: HandlerContext,
  change: AuditChange,
): Promise<void> {
  if (callContext(ctx).caller) await recordAudit(tx, ctx, change);
}

/** As recordAudit, for a change made on behalf of someone other than the call's caller. */
export async function recordAuditAs(
  tx: Transaction,
  ctx: HandlerContext,
  actor: AuditActor,
  change: AuditChange,
): Promise<void> {
  await recordChange(
    tx,
    {
      actor,
      action: procedureOf(ctx),
      source: ctx.requestHeader.get(SOURCE_HEADER),
      ip: callContext(ctx).ip,
      userAgent: ctx.requestHeader.get("user-agent"),
    },
    change,
  );
}

/** Who made a change, from where, through what: for changes made outside an RPC handler. */
export interface AuditOrigin {
  actor: AuditActor;
  /** "TeamService.ChangeRole", or a job's own name ("WaiverService.Expire"). */
  action: string;
  /** Where a change made by code came from (the caller's x-palisade-source), or a chat user. */
  source?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** Records a change in the transaction that makes it, from an origin given in full. */
export async function recordChange(tx: Transaction, origin: AuditOrigin, change: AuditChange): Promise<void> {
  const { actor } = origin;
  await appendAuditRecord(tx, {
    tenantId: actor.tenantId,
    actorType: actor.type,
    actorId: actor.id ?? null,
    actorName: actor.name ?? null,
    actorSource: boundedText(origin.source, MAX_SOURCE_LENGTH),
    ipAddress: origin.ip || null,
    userAgent: boundedText(origin.userAgent, MAX_USER_AGENT_LENGTH),
    action: origin.action,
    targetType: change.target.type,
    targetId: change.target.id,
    targetName: boundedText(change.target.name, 256),
    before: auditValue(change.before),
    after: auditValue(change.after),
  });
}

/** Records a change Palisade made on its own (a scheduled job), named by `action`. */
export async function recordSystemAudit(
  tx: Transaction,
  tenantId: string,
  action: string,
  change: AuditChange,
): Promise<void> {
  await recordChange(tx, { actor: { tenantId, type: "system", name: "Palisade" }, action }, change);
}
