import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  CloudEntityDetailsSchema,
  CloudProvider,
  ErrorDetailSchema,
  ProductErrorCode,
  ScopeSchema,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type Waiver,
  WaiverApprovalType,
  WaiverCreateSource,
  WaiverDeploymentStatus,
  WaiverSchema,
  WaiverStatus,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { ListOrderBy, type WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { rolePermissions } from "@palisade/api/roles";
import { parseRoleName } from "../../auth/roles";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import { type CallContext, type Caller, callContext, requireCaller } from "../../rpc/call-context";
import { pageResponse, pageWindow } from "../../rpc/pagination";
import { writeAudit } from "../audit/audit-log";
import { enqueueBundleSync } from "../deployment/bundle-sync";
import { scheduleExpiry, startWaiverExpiry } from "./waiver-expiry";
import {
  type BundleRow,
  countOpenWaivers,
  type DeploymentRow,
  deploymentsOfBundle,
  findByIdempotencyKey,
  findLiveBundleByKey,
  findWaiver,
  findWaivers,
  insertWaivers,
  listCreators,
  listWaivers,
  lockBundleForWaivers,
  maxWaiverHours,
  membershipRole,
  openWaiversOfKey,
  parentScope,
  summarize,
  tenantHasKey,
  transitionWaiver,
  type WaiverInsert,
  type WaiverView,
} from "./waiver-repository";
import {
  describeTarget,
  enclosingScopes,
  IDEMPOTENCY_WINDOW_MS,
  MAX_IDEMPOTENCY_KEY,
  MAX_OPEN_WAIVERS_PER_DEPLOYMENT,
  nameOfStatus,
  parseCreateInput,
  parseKey,
  refusedTransition,
  reportedStatus,
  scopeTypeOf,
  statusOfName,
  type WaiverStatusName,
  type WaiverTarget,
} from "./waiver-rules";

const MAX_FILTER_ITEMS = 100;
const MAX_COMMENT_FILTER = 220;
const MAX_HIERARCHY_DEPTH = 12;

const createSourceNames: Record<WaiverCreateSource, string> = {
  [WaiverCreateSource.UNSPECIFIED]: "FORM",
  [WaiverCreateSource.SYSTEM]: "SYSTEM",
  [WaiverCreateSource.FORM]: "FORM",
  [WaiverCreateSource.TEAMS]: "TEAMS",
};

const productErrorCodes = new Map(
  Object.entries(ProductErrorCode).filter(([, v]) => typeof v === "number") as [string, ProductErrorCode][],
);

function providerOf(name: string): CloudProvider {
  const upper = name.toUpperCase();
  if (upper === "AWS") return CloudProvider.AWS;
  if (upper === "AZURE") return CloudProvider.AZURE;
  return CloudProvider.UNSPECIFIED;
}

function targetOf(row: WaiverView): WaiverTarget | undefined {
  if (row.principalArn) return { kind: "principal", arn: row.principalArn };
  if (row.resource) return { kind: "resource", externalId: row.resource };
  if (row.scope) return { kind: "scope", externalId: row.scope };
  return undefined;
}

export function waiverMessage(row: WaiverView): Waiver {
  const status = reportedStatus(row.status, row.deploymentStatus);
  const target = targetOf(row);
  const provider = providerOf(row.provider);
  return create(WaiverSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(row.createdAt),
      updatedAt: timestampFromDate(row.updatedAt),
    },
    policyDeployment: { id: row.deploymentId, name: row.bundleName, policySlug: row.policySlug },
    target:
      target?.kind === "principal"
        ? { case: "principalArn", value: target.arn }
        : target?.kind === "resource"
          ? { case: "resource", value: create(CloudEntityDetailsSchema, { externalId: target.externalId }) }
          : target?.kind === "scope"
            ? {
                case: "targetScope",
                value: create(ScopeSchema, {
                  provider,
                  externalId: target.externalId,
                  type: scopeTypeOf(target.externalId),
                }),
              }
            : { case: undefined },
    policyKey: row.policyKey,
    createSource:
      WaiverCreateSource[row.createSource as keyof typeof WaiverCreateSource] ?? WaiverCreateSource.FORM,
    requester: { name: row.requesterName, identifier: row.requesterIdentifier, comment: row.comment },
    expiresAt: row.expiresAt ? timestampFromDate(row.expiresAt) : undefined,
    duration: BigInt(row.durationSeconds),
    scope: target ? describeTarget(target) : "",
    status: statusOfName(status),
    reviewer: row.reviewerName
      ? { name: row.reviewerName, identifier: row.reviewerIdentifier ?? "" }
      : undefined,
    reviewedAt: row.reviewedAt ? timestampFromDate(row.reviewedAt) : undefined,
    approvalType: row.approvalType === "MANUAL" ? WaiverApprovalType.MANUAL : WaiverApprovalType.AUTO,
    deploymentStatus:
      WaiverDeploymentStatus[row.deploymentStatus as keyof typeof WaiverDeploymentStatus] ??
      WaiverDeploymentStatus.PENDING,
    errorCode: (row.errorCode && productErrorCodes.get(row.errorCode)) || ProductErrorCode.UNSPECIFIED,
  });
}

/** E-mail for people; the API key's id for integrations. */
function identifierOf(caller: Caller): string {
  return caller.email ?? caller.id;
}

function notFoundWaiver(): ConnectError {
  return new ConnectError("No waiver with this id in this tenant.", Code.NotFound);
}

function notFoundKey(key: string): ConnectError {
  return new ConnectError(`No policy with key ${key} in this tenant.`, Code.NotFound);
}

export interface WaiverServiceDeps {
  db: Database;
  jobs: JobQueue;
  logger: Logger;
}

/**
 * WaiverService (spec section 7) and the waiver lifecycle: PENDING -> ACTIVE | REJECTED |
 * CANCELLED, ACTIVE -> EXPIRED | CANCELLED. Every change that can alter what the cloud enforces
 * re-syncs the bundle; expiry is a durable job started here.
 */
export async function createWaiverService(
  deps: WaiverServiceDeps,
): Promise<ServiceImpl<typeof WaiverService>> {
  const { db, jobs } = deps;
  await startWaiverExpiry(deps);

  async function audit(
    context: CallContext,
    action: string,
    waiver: WaiverView,
    details: Record<string, unknown>,
  ) {
    await writeAudit(db, context, {
      action: `WaiverService.${action}`,
      targetType: "waiver",
      targetId: waiver.id,
      details: { policyKey: waiver.policyKey, ...details },
    });
  }

  /**
   * The caller's standing in the tenant that owns the key: requesting a waiver on another
   * tenant's policy needs membership there, whatever tenant the caller is signed in to.
   */
  async function requireRequesterIn(caller: Caller, bundle: BundleRow): Promise<void> {
    if (caller.kind === "api_key") {
      if (caller.tenantId !== bundle.tenantId) {
        throw new ConnectError(
          `Policy key ${bundle.key} belongs to another tenant; this API key can only request waivers for its own tenant's policies.`,
          Code.PermissionDenied,
        );
      }
      return;
    }
    const role = parseRoleName(await membershipRole(db, bundle.tenantId, caller.id));
    if (role === undefined) {
      throw new ConnectError(
        `Policy key ${bundle.key} belongs to a tenant you are not a member of. Ask an administrator of that tenant to invite you; any role there can request waivers.`,
        Code.PermissionDenied,
      );
    }
    if (!rolePermissions[role].includes(Permission.WAIVERS_REQUEST)) {
      throw new ConnectError(
        `Your role in the tenant that owns policy key ${bundle.key} does not grant WAIVERS_REQUEST; ask one of its administrators for a role that does.`,
        Code.PermissionDenied,
      );
    }
  }

  /** The ancestors of a target, innermost first, through the tenant's cloud hierarchy. */
  async function scopeChain(tenantId: string, target: WaiverTarget): Promise<string[]> {
    const chain = enclosingScopes(target);
    let current = chain.at(-1);
    for (let depth = 0; current && depth < MAX_HIERARCHY_DEPTH; depth++) {
      current = await parentScope(db, tenantId, current);
      if (current) chain.push(current);
    }
    return chain.map((s) => s.toLowerCase());
  }

  /**
   * The deployments a new waiver attaches to: the one whose scope contains the target, or
   * with no target every deployment of the bundle (the waiver covers all its scopes).
   */
  async function deploymentsFor(
    bundle: BundleRow,
    target: WaiverTarget | undefined,
  ): Promise<{ deployment: DeploymentRow; target: WaiverTarget }[]> {
    const all = await deploymentsOfBundle(db, bundle.id);
    if (all.length === 0) {
      throw new ConnectError(
        `Policy ${bundle.key} is not deployed to any scope yet, so there is nothing to waive.`,
        Code.FailedPrecondition,
      );
    }
    if (!target) {
      return all.map((deployment) => ({
        deployment,
        target: { kind: "scope", externalId: deployment.scopeExternalId },
      }));
    }
    const chain = await scopeChain(bundle.tenantId, target);
    for (const scope of chain) {
      const deployment = all.find((d) => d.scopeExternalId.toLowerCase() === scope);
      if (deployment) return [{ deployment, target }];
    }
    throw new ConnectError(
      `${describeTarget(target)} is not within any scope policy ${bundle.key} is deployed to.`,
      Code.InvalidArgument,
    );
  }

  async function syncBundle(waiver: { bundleId: string; tenantId: string }, reason: string) {
    await enqueueBundleSync(jobs, { bundleId: waiver.bundleId, tenantId: waiver.tenantId, reason });
  }

  /** Moves one waiver to `to`, or answers why it cannot. */
  async function transition(
    caller: Caller,
    waiver: WaiverView,
    to: WaiverStatusName,
    changes: Partial<WaiverInsert> = {},
  ): Promise<WaiverView> {
    const from = waiver.status as WaiverStatusName;
    const refused = refusedTransition(from, to);
    if (refused) throw new ConnectError(refused, Code.FailedPrecondition);
    if (!(await transitionWaiver(db, caller.tenantId, waiver.id, from, { ...changes, status: to }))) {
      const now = await findWaiver(db, caller.tenantId, waiver.id);
      if (!now) throw notFoundWaiver();
      throw new ConnectError(
        refusedTransition(now.status as WaiverStatusName, to) ??
          `The waiver changed to ${now.status} while this request was processed; try again.`,
        Code.FailedPrecondition,
      );
    }
    const updated = await findWaiver(db, caller.tenantId, waiver.id);
    if (!updated) throw notFoundWaiver();
    return updated;
  }

  function reviewer(caller: Caller, now: Date) {
    return { reviewerName: caller.name, reviewerIdentifier: identifierOf(caller), reviewedAt: now };
  }

  return {
    async create(req, ctx) {
      const caller = requireCaller(ctx);
      const input = parseCreateInput(req);
      const idempotencyKey = ctx.requestHeader.get("idempotency-key")?.trim() || undefined;
      if (idempotencyKey && idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
        throw new ConnectError(
          `The Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY} characters.`,
          Code.InvalidArgument,
        );
      }
      const createSource = createSourceNames[req.createSource];
      if (createSource === undefined) {
        throw new ConnectError("create_source must be SYSTEM, FORM or TEAMS.", Code.InvalidArgument);
      }

      const bundle = await findLiveBundleByKey(db, input.key);
      if (!bundle) {
        throw new ConnectError(
          `No policy has the key ${input.key}. Check the key in the deny message.`,
          Code.NotFound,
        );
      }
      await requireRequesterIn(caller, bundle);
      const maxHours = (await maxWaiverHours(db, bundle.tenantId)) ?? 72;
      if (input.durationSeconds > maxHours * 3_600) {
        throw new ConnectError(
          `This tenant allows waivers of at most ${maxHours} hours; choose a shorter duration.`,
          Code.InvalidArgument,
        );
      }
      const targets = await deploymentsFor(bundle, input.target);
      const requesterIdentifier = identifierOf(caller);
      const auto = bundle.waiverApprovalMode !== "MANUAL";

      const created = await db.transaction(async (txn) => {
        const tx = txn as unknown as Database;
        await lockBundleForWaivers(tx, bundle.id);
        if (idempotencyKey) {
          const since = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS);
          const first = await findByIdempotencyKey(
            tx,
            bundle.tenantId,
            requesterIdentifier,
            idempotencyKey,
            since,
          );
          if (first) return { waiver: first, replayed: true };
        }
        for (const { deployment } of targets) {
          if ((await countOpenWaivers(tx, deployment.id)) >= MAX_OPEN_WAIVERS_PER_DEPLOYMENT) {
            throw new ConnectError(
              `Policy ${bundle.key} already has ${MAX_OPEN_WAIVERS_PER_DEPLOYMENT} pending or active waivers on ${describeTarget({ kind: "scope", externalId: deployment.scopeExternalId })}; cancel some before requesting another.`,
              Code.FailedPrecondition,
              undefined,
              [
                {
                  desc: ErrorDetailSchema,
                  value: {
                    code: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
                    message: `At most ${MAX_OPEN_WAIVERS_PER_DEPLOYMENT} pending or active waivers per deployment.`,
                  },
                },
              ],
            );
          }
        }
        const now = new Date();
        const rows = await insertWaivers(
          tx,
          targets.map(({ deployment, target }) => ({
            tenantId: bundle.tenantId,
            deploymentId: deployment.id,
            policyKey: bundle.key,
            createSource,
            requesterName: caller.name,
            requesterIdentifier,
            requesterUserId: caller.kind === "user" ? caller.id : null,
            comment: input.comment,
            durationSeconds: input.durationSeconds,
            expiresAt: auto ? new Date(now.getTime() + input.durationSeconds * 1_000) : null,
            scope: target.kind === "scope" ? target.externalId : null,
            resource: target.kind === "resource" ? target.externalId : null,
            principalArn: target.kind === "principal" ? target.arn : null,
            idempotencyKey: idempotencyKey ?? null,
            status: auto ? "ACTIVE" : "PENDING",
            approvalType: auto ? "AUTO" : "MANUAL",
            deploymentStatus: "PENDING",
          })),
        );
        const views = await findWaivers(
          tx,
          rows.map((r) => r.id),
        );
        const [first] = views;
        if (!first) throw new ConnectError("The waiver was not stored.", Code.Internal);
        return { waiver: first, all: views, replayed: false };
      });
      if (created.replayed) return { waiver: waiverMessage(created.waiver) };

      // The audit record belongs to the tenant that owns the key, where the waiver lives.
      const keyContext: CallContext = {
        ...callContext(ctx),
        caller: { ...caller, tenantId: bundle.tenantId },
      };
      for (const waiver of created.all ?? []) {
        await audit(keyContext, "Create", waiver, {
          status: waiver.status,
          durationSeconds: waiver.durationSeconds,
          scope: waiver.scope ?? waiver.resource ?? waiver.principalArn,
        });
      }
      if (auto) {
        await syncBundle(created.waiver, "waiver activated");
        if (created.waiver.expiresAt) await scheduleExpiry(jobs, created.waiver.expiresAt);
      }
      return { waiver: waiverMessage(created.waiver) };
    },

    async list(req, ctx) {
      const caller = requireCaller(ctx);
      const window = pageWindow(req.pagination);
      const filter = req.filter;
      const key = filter?.key ? parseKey(filter.key) : undefined;
      if (key && !(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
      const statuses = (filter?.status ?? []).map((s) => {
        const name = nameOfStatus(s);
        if (!name)
          throw new ConnectError(`Unknown waiver status ${s} in the status filter.`, Code.InvalidArgument);
        return name;
      });
      const requestedBy = filter?.requestedBy ?? [];
      if (statuses.length > MAX_FILTER_ITEMS || requestedBy.length > MAX_FILTER_ITEMS) {
        throw new ConnectError(
          `A filter list may hold at most ${MAX_FILTER_ITEMS} values.`,
          Code.InvalidArgument,
        );
      }
      const comment = filter?.comment?.trim();
      if (comment && comment.length > MAX_COMMENT_FILTER) {
        throw new ConnectError(
          `The comment filter must be at most ${MAX_COMMENT_FILTER} characters.`,
          Code.InvalidArgument,
        );
      }
      if (req.orderBy !== ListOrderBy.UNSPECIFIED && ListOrderBy[req.orderBy] === undefined) {
        throw new ConnectError("order_by must be CREATED_AT or STATUS.", Code.InvalidArgument);
      }
      const { rows, total } = await listWaivers(
        db,
        caller.tenantId,
        {
          key,
          statuses,
          requestedBy,
          comment: comment || undefined,
          orderBy: req.orderBy === ListOrderBy.STATUS ? "status" : "created_at",
        },
        window,
      );
      return { items: rows.map(waiverMessage), pagination: pageResponse(total, window) };
    },

    async listCreators(req, ctx) {
      const caller = requireCaller(ctx);
      const key = req.filter?.key ? parseKey(req.filter.key) : undefined;
      if (key && !(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
      return { creators: await listCreators(db, caller.tenantId, key) };
    },

    async summary(req, ctx) {
      const caller = requireCaller(ctx);
      const keys = req.filter?.keys ?? [];
      if (keys.length > MAX_FILTER_ITEMS) {
        throw new ConnectError(`Ask for at most ${MAX_FILTER_ITEMS} keys at once.`, Code.InvalidArgument);
      }
      const counts = await summarize(db, caller.tenantId, keys.map(parseKey));
      return {
        total: Object.values(counts).reduce((a, b) => a + b, 0),
        active: counts.ACTIVE,
        pending: counts.PENDING,
        rejected: counts.REJECTED,
        cancelled: counts.CANCELLED,
        expired: counts.EXPIRED,
      };
    },

    async cancel(req, ctx) {
      const caller = requireCaller(ctx);
      const context = callContext(ctx);
      const target = req.target;
      if (target.case === "id") {
        const waiver = target.value ? await findWaiver(db, caller.tenantId, target.value) : undefined;
        if (!waiver) throw notFoundWaiver();
        const cancelled = await transition(caller, waiver, "CANCELLED");
        await audit(context, "Cancel", cancelled, { from: waiver.status });
        await syncBundle(cancelled, "waiver cancelled");
        return { waivers: [waiverMessage(cancelled)] };
      }
      if (target.case === "policyKey") {
        const key = parseKey(target.value);
        if (!(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
        const cancelled: WaiverView[] = [];
        for (const waiver of await openWaiversOfKey(db, caller.tenantId, key)) {
          const from = waiver.status as WaiverStatusName;
          // A waiver that expired meanwhile is simply not among the cancelled ones.
          if (!(await transitionWaiver(db, caller.tenantId, waiver.id, from, { status: "CANCELLED" })))
            continue;
          const updated = await findWaiver(db, caller.tenantId, waiver.id);
          if (!updated) continue;
          await audit(context, "Cancel", updated, { from });
          cancelled.push(updated);
        }
        for (const bundleId of new Set(cancelled.map((w) => w.bundleId))) {
          await syncBundle({ bundleId, tenantId: caller.tenantId }, "waivers cancelled");
        }
        return { waivers: cancelled.map(waiverMessage) };
      }
      throw new ConnectError("Give the id of the waiver to cancel, or a policy key.", Code.InvalidArgument);
    },

    async update(req, ctx) {
      const caller = requireCaller(ctx);
      if (req.status !== WaiverStatus.ACTIVE && req.status !== WaiverStatus.REJECTED) {
        throw new ConnectError(
          "status must be ACTIVE (approve) or REJECTED (reject); cancel a waiver with Cancel.",
          Code.InvalidArgument,
        );
      }
      const waiver = req.id ? await findWaiver(db, caller.tenantId, req.id) : undefined;
      if (!waiver) throw notFoundWaiver();
      const now = new Date();
      let updated: WaiverView;
      if (req.status === WaiverStatus.ACTIVE) {
        const expiresAt = new Date(now.getTime() + waiver.durationSeconds * 1_000);
        updated = await transition(caller, waiver, "ACTIVE", {
          ...reviewer(caller, now),
          expiresAt,
          deploymentStatus: "PENDING",
          errorCode: null,
        });
        await audit(callContext(ctx), "Approve", updated, { expiresAt: expiresAt.toISOString() });
        await syncBundle(updated, "waiver approved");
        await scheduleExpiry(jobs, expiresAt);
      } else {
        updated = await transition(caller, waiver, "REJECTED", reviewer(caller, now));
        await audit(callContext(ctx), "Reject", updated, {});
        await syncBundle(updated, "waiver rejected");
      }
      return { waiver: waiverMessage(updated) };
    },
  };
}
