import type { PackedPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import {
  keyOfSid,
  keysOfContent,
  type PackGuardrail,
  packScps,
  parsePackName,
  type ScpLimits,
} from "@palisade/policy-engine/compilers/aws/pack-scps";
import { type CurrentPack, planRepack } from "@palisade/policy-engine/compilers/aws/plan-repack";
import type { AttachedScp, AwsCloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { createKeyedLock } from "../../lib/keyed-lock";
import type { Logger } from "../../logger";
import { findConnector, policyLimitsOf } from "../connector/connector-api";
import { listGuardrailsOnTarget } from "./scp-target-repository";

/** SCPs of one bundle before packing: `palisade-<KEY>-<slug>`. */
const LEGACY_NAME = /^palisade-[0-9A-HJKMNP-TV-Z]{7}-/;

/** The guardrail being synced: its new compiled content, or none when it leaves the target. */
export interface ChangedGuardrail {
  key: string;
  slug: string;
  content: string | undefined;
  /** The policy type the guardrail deploys as; SCP unless stated. Each type has its own packs. */
  policyType?: PackedPolicyType;
}

export interface RepackOutcome {
  /** Key -> id of the packed SCP holding it on the target. */
  placed: Map<string, string>;
  /** Key -> why it does not fit on the target. */
  unplaced: Map<string, string>;
  /** Whether the changed guardrail was in force on the target before the re-pack. */
  wasPresent: boolean;
  /** The change did not fit, so the guardrail stays in force as it was. */
  keptPrevious: boolean;
}

interface TargetState {
  packs: (CurrentPack & { ref: AttachedScp })[];
  legacy: AttachedScp[];
  foreign: number;
  /** Key -> its statements as the target's SCPs hold them now. */
  statements: Map<string, Record<string, unknown>[]>;
}

function statementsOf(content: string): Record<string, unknown>[] {
  try {
    const document = JSON.parse(content) as { Statement?: unknown };
    const list = Array.isArray(document.Statement) ? document.Statement : [document.Statement];
    return list.filter((s): s is Record<string, unknown> => Boolean(s && typeof s === "object"));
  } catch {
    // An unreadable document holds no guardrail Palisade can carry over.
    return [];
  }
}

/**
 * The target's policies of one type. Any other policy of that type counts as foreign and is never
 * touched: FullAWSAccess, RCPFullAWSAccess (which AWS attaches everywhere once RCPs are enabled and
 * which cannot be detached) and the organisation's own. Only SCPs predate packing.
 */
async function readTarget(
  provider: AwsCloudProvider,
  target: string,
  policyType: PackedPolicyType,
): Promise<TargetState> {
  const attached = await provider.listTargetScps(target, policyType);
  const state: TargetState = { packs: [], legacy: [], foreign: 0, statements: new Map() };
  const fromLegacy = new Map<string, Record<string, unknown>[]>();
  const legacyType = policyType === "SERVICE_CONTROL_POLICY";
  for (const scp of attached) {
    const pack = parsePackName(scp.name, policyType);
    const isPack = pack?.target === target;
    if (!isPack && !(legacyType && LEGACY_NAME.test(scp.name))) {
      state.foreign += 1;
      continue;
    }
    const content = await provider.readScpContent(scp.id);
    if (isPack) state.packs.push({ slot: pack!.slot, id: scp.id, content, ref: scp });
    else state.legacy.push(scp);
    const into = isPack ? state.statements : fromLegacy;
    for (const statement of statementsOf(content)) {
      const key = keyOfSid(statement.Sid as string | undefined);
      if (!key) continue;
      into.set(key, [...(into.get(key) ?? []), statement]);
    }
  }
  // Packed statements win over a legacy SCP's copy of the same guardrail.
  for (const [key, statements] of fromLegacy)
    if (!state.statements.has(key)) state.statements.set(key, statements);
  return state;
}

export interface RepackContext {
  db: Database;
  logger: Logger;
  provider: AwsCloudProvider;
  tenantId: string;
  connectorId: string;
  target: string;
}

/**
 * Re-packs the SCPs of one AWS target after one guardrail changed: the guardrails already in force
 * keep their statements and their priority (oldest bundle first), the changed one gets its new
 * statements or leaves, guardrails of bundles no longer live there leave. Writes follow
 * `planRepack`, so a guardrail that stays is never missing; SCPs of one bundle from before packing
 * are detached once the packs hold their guardrails.
 */
export function repackTarget(ctx: RepackContext, changed: ChangedGuardrail): Promise<RepackOutcome> {
  // Two bundles deploying to one target must not write its SCPs at the same time.
  const type = changed.policyType ?? "SERVICE_CONTROL_POLICY";
  return targetLock(`${ctx.connectorId}:${ctx.target}:${type}`, () => repackNow(ctx, changed));
}

const targetLock = createKeyedLock();

async function repackNow(ctx: RepackContext, changed: ChangedGuardrail): Promise<RepackOutcome> {
  const { db, tenantId, connectorId, target } = ctx;
  const connector = await findConnector(db, tenantId, connectorId);
  const live = await listGuardrailsOnTarget(db, tenantId, connectorId, target);
  return repackScps(
    { provider: ctx.provider, logger: ctx.logger, target },
    {
      limits: policyLimitsOf(connector?.config, changed.policyType ?? "SERVICE_CONTROL_POLICY"),
      live: live.map(({ bundle }) => ({ key: bundle.key, slug: bundle.policySlug })),
      targetName: (live[0]?.deployment.scope as { name?: string } | undefined)?.name,
    },
    changed,
  );
}

/** The guardrails deployed to a target, oldest bundle first, and the target's quotas. */
export interface RepackInputs {
  limits: ScpLimits;
  live: { key: string; slug: string }[];
  targetName: string | undefined;
}

/** The re-pack itself, on the cloud alone: reads the target's SCPs and writes the new packs. */
export async function repackScps(
  ctx: { provider: AwsCloudProvider; logger: Pick<Logger, "info">; target: string },
  { limits, live, targetName }: RepackInputs,
  changed: ChangedGuardrail,
): Promise<RepackOutcome> {
  const { provider, target } = ctx;
  const policyType = changed.policyType ?? "SERVICE_CONTROL_POLICY";
  // Guardrails of the other type have no statements among this type's policies, so they are skipped below.
  const state = await readTarget(provider, target, policyType);
  const wasPresent = state.statements.has(changed.key);

  const asContent = (statements: Record<string, unknown>[]) =>
    JSON.stringify({ Version: "2012-10-17", Statement: statements });
  // Guardrails in force keep their place, oldest bundle first; the changed one comes last, so a
  // change never pushes another guardrail out.
  const guardrails: PackGuardrail[] = [];
  for (const bundle of live) {
    if (bundle.key === changed.key || guardrails.some((g) => g.key === bundle.key)) continue;
    const statements = state.statements.get(bundle.key);
    if (statements) guardrails.push({ key: bundle.key, slug: bundle.slug, content: asContent(statements) });
  }
  const stillLive = live.some((bundle) => bundle.key === changed.key);
  const previous = new Map<string, number>();
  for (const pack of state.packs) for (const key of keysOfContent(pack.content)) previous.set(key, pack.slot);
  const pack = (content: string | undefined) =>
    packScps({
      target,
      targetName,
      guardrails:
        content === undefined || !stillLive
          ? guardrails
          : [...guardrails, { key: changed.key, slug: changed.slug, content }],
      limits,
      foreign: state.foreign,
      previous,
      policyType,
    });
  let result = pack(changed.content);
  const refused = result.unplaced.find((u) => u.key === changed.key);
  const before = state.statements.get(changed.key);
  let keptPrevious = false;
  if (refused && before) {
    // It no longer fits as changed: keep it as it was in force, and say why the change failed.
    const fallback = pack(asContent(before));
    if (!fallback.unplaced.some((u) => u.key === changed.key)) {
      result = { packs: fallback.packs, unplaced: [refused] };
      keptPrevious = true;
    }
  }
  const { packs, unplaced } = result;

  const ids = new Map(state.packs.map((p) => [p.slot, p.id]));
  for (const step of planRepack(state.packs, packs, limits.characters)) {
    if (step.op === "create") {
      const ref = await provider.putScp(step, undefined, policyType);
      await provider.attachScp(ref.id, target);
      ids.set(step.slot, ref.id);
    } else if (step.op === "update") {
      await provider.putScp(step, step.id);
    } else {
      await provider.detachScp(step.id, target);
      await provider.removeScp(step.id);
      ids.delete(step.slot);
    }
  }
  // SCPs of one bundle from before packing leave once the packs hold what they held.
  const inPacks = new Set(packs.flatMap((p) => p.keys));
  for (const scp of state.legacy) {
    await provider.detachScp(scp.id, target);
    if ((await provider.listScpTargets(scp.id)).length === 0) await provider.removeScp(scp.id);
    ctx.logger.info(
      { policyId: scp.id, target, kept: inPacks.size },
      "per-bundle SCP replaced by packed SCPs",
    );
  }

  const placed = new Map<string, string>();
  for (const pack of packs) for (const key of pack.keys) placed.set(key, ids.get(pack.slot) ?? "");
  return {
    placed,
    unplaced: new Map(unplaced.map((u) => [u.key, u.message])),
    wasPresent,
    keptPrevious,
  };
}
