import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import type { AzureResource } from "@palisade/policy-engine/evaluators/azure/azure-resource";
import { evaluatePolicyRule } from "@palisade/policy-engine/evaluators/azure/evaluate-policy-rule";
import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import type { AuditRecord } from "../../cloud/cloud-provider";
import {
  armResourceParts,
  type DeploymentInfo,
  decide,
  isAtOrBelowArm,
  lower,
  resourceOf,
  type StoredRequest,
} from "../event/event-api";

// The impact preview: the requests of the audit stream replayed against a guardrail that is not
// deployed yet. Pure: the job reads the stored requests (AWS) or the pages (Azure) and the
// deployed guardrails, this decides.

export const TOP_LIMIT = 5;
export const SAMPLE_LIMIT = 20;

export interface ImpactSampleRecord {
  eventId: string;
  time: string;
  action: string;
  principal: string;
  scopeId: string;
  resource: string;
}

/** What the replay counted so far; the job stores it as the preview's result. */
export interface ImpactTally {
  evaluated: number;
  denied: number;
  alreadyDenied: number;
  notEvaluable: number;
  /** The actions of the requests not evaluable, and the keys the records did not tell. */
  notEvaluableActions: Map<string, number>;
  missingKeys: Set<string>;
  actions: Map<string, number>;
  principals: Map<string, number>;
  scopes: Map<string, number>;
  /** Newest first (CloudTrail pages come newest first; Azure records are sorted before). */
  samples: ImpactSampleRecord[];
}

export function createTally(): ImpactTally {
  return {
    evaluated: 0,
    denied: 0,
    alreadyDenied: 0,
    notEvaluable: 0,
    notEvaluableActions: new Map(),
    missingKeys: new Set(),
    actions: new Map(),
    principals: new Map(),
    scopes: new Map(),
    samples: [],
  };
}

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

function countDenied(tally: ImpactTally, sample: ImpactSampleRecord, count = 1) {
  tally.denied += count;
  bump(tally.actions, sample.action, count);
  bump(tally.principals, sample.principal, count);
  bump(tally.scopes, sample.scopeId, count);
  if (tally.samples.length < SAMPLE_LIMIT) tally.samples.push(sample);
}

/** The largest counts first; ties by value so that the answer is stable. */
export function topCounts(map: Map<string, number>, limit = TOP_LIMIT): { value: string; count: number }[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([value, count]) => ({ value, count }));
}

/** The candidate guardrail on AWS: its SCP and where it would be attached. */
export interface AwsReplayTarget {
  scp: ScpPolicy;
  scopes: string[];
  excluded: string[];
  /** The organisation's management account, which SCPs never restrict. */
  managementAccountId: string;
  /** Guardrails already deployed through the same connector (their SCPs without waivers). */
  deployed: DeploymentInfo[];
  /** An account and its OUs and root, nearest first. */
  ancestorsOf(scopeId: string): string[];
}

const underScopes = (path: string[], scopes: string[], excluded: string[]) =>
  scopes.some((s) => path.includes(s)) && !excluded.some((s) => path.includes(s));

/**
 * One stored request, made `count` times: would the candidate SCP have denied it, and is that
 * new? A request the cloud already refused, or that a PREVENT guardrail on the same account
 * denies (it went through under a waiver, or before that guardrail was deployed), is counted as
 * already denied. A request whose record does not tell what the candidate reads is counted as
 * not evaluable, never as allowed.
 */
export function replayStoredRequest(stored: StoredRequest, target: AwsReplayTarget, tally: ImpactTally) {
  const { request, count } = stored;
  if (!request.account || request.account === target.managementAccountId) return;
  const path = target.ancestorsOf(request.account);
  if (!underScopes(path, target.scopes, target.excluded)) return;
  tally.evaluated += count;
  const decision = decide(target.scp, request);
  if (decision.decision === "not_evaluable") {
    tally.notEvaluable += count;
    bump(tally.notEvaluableActions, request.action, count);
    for (const key of decision.missing) tally.missingKeys.add(key);
    return;
  }
  if (decision.decision !== "explicit_deny") return;
  const deniedToday = target.deployed.some(
    (d) =>
      d.mode === "PREVENT" &&
      d.scp &&
      path.includes(d.scopeExternalId) &&
      !d.excludedScopes.some((s) => path.includes(s)) &&
      decide(d.scp, request).decision === "explicit_deny",
  );
  if (stored.refused || deniedToday) {
    tally.alreadyDenied += count;
    return;
  }
  countDenied(
    tally,
    {
      eventId: stored.lastEventId,
      time: stored.lastSeenAt.toISOString(),
      action: request.action,
      principal: request.principalArn,
      scopeId: request.account,
      resource: resourceOf(request),
    },
    count,
  );
}

/** The candidate guardrail on Azure: its rule, parameters and assignment scopes. */
export interface AzureReplayTarget {
  policyRule: unknown;
  parameters: Record<string, unknown>;
  scopes: string[];
  excluded: string[];
  /** Resource types the definition is about; empty when any. */
  resourceTypes: string[];
  aliases: AliasTable;
  /** Fields the rule reads (lower case), from `fieldsReadBy`. */
  fields: Set<string>;
}

/** Fields of a resource that every Activity Log record carries (the rest is in the request body it does not keep). */
const FIELDS_IN_RECORD = new Set(["type", "name", "id", "fullname"]);

function ruleFields(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) ruleFields(item, out);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "field" && typeof value === "string") out.add(value.toLowerCase());
      else ruleFields(value, out);
    }
  }
  return out;
}

/** The fields a policy rule's condition reads, lower case. */
export function fieldsReadBy(policyRule: unknown): Set<string> {
  return ruleFields((policyRule as { if?: unknown })?.if, new Set());
}

interface ActivityDetail {
  resourceId?: string;
  caller?: string;
  properties?: Record<string, string>;
}

/**
 * One Activity Log record: a write that went through, under the scopes, on a resource type the
 * rule is about. When the rule reads properties the record does not keep (the request body), the
 * record is counted as not evaluable rather than guessed.
 */
export function replayActivityRecord(record: AuditRecord, target: AzureReplayTarget, tally: ImpactTally) {
  const detail = (record.raw ?? {}) as ActivityDetail;
  const resourceId = detail.resourceId ?? "";
  if (!resourceId || !/\/write$/i.test(record.action) || /^Microsoft\.Authorization\//i.test(record.action))
    return;
  if (!target.scopes.some((s) => isAtOrBelowArm(resourceId, s))) return;
  if (target.excluded.some((s) => isAtOrBelowArm(resourceId, s))) return;
  const parts = armResourceParts(resourceId);
  const type = parts.nativeType ?? "";
  if (target.resourceTypes.length > 0 && !target.resourceTypes.some((t) => lower(t) === lower(type))) return;
  tally.evaluated += 1;
  if (record.errorCode) {
    // Refused by the cloud already (a deployed assignment, or another reason).
    if (record.errorCode === "RequestDisallowedByPolicy") tally.alreadyDenied += 1;
    return;
  }
  const location = detail.properties?.resourceLocation;
  const carried = (f: string) => FIELDS_IN_RECORD.has(f) || (f === "location" && Boolean(location));
  if (![...target.fields].every(carried)) {
    tally.notEvaluable += 1;
    return;
  }
  const resource: AzureResource = {
    id: resourceId,
    type,
    name: parts.name,
    ...(location ? { location } : {}),
  };
  const result = evaluatePolicyRule(target.policyRule, resource, target.parameters, target.aliases);
  if (!result.applies || lower(result.effect ?? "") !== "deny") return;
  countDenied(tally, {
    eventId: record.id,
    time: record.time.toISOString(),
    action: record.action,
    principal: detail.caller ?? record.principal ?? "",
    // Subscriptions are named by their ARM id in the hierarchy.
    scopeId: record.scopeId ? `/subscriptions/${record.scopeId}` : (parts.scope ?? ""),
    resource: resourceId,
  });
}
