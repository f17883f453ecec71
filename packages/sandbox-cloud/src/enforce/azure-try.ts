import { randomUUID } from "node:crypto";
import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import type { AzureResource } from "@palisade/policy-engine/evaluators/azure/azure-resource";
import {
  type AzureAssignment,
  evaluateAzureRequest,
} from "@palisade/policy-engine/evaluators/azure/evaluate-assignments";
import { recordActivity } from "../azure/activity-log";
import { props } from "../azure/arm-http";
import { parseScope, resolveScope, sameScope, scopeChain } from "../azure/scopes";
import type { ArmObject, AzurePrincipal, AzureState } from "../state/model";
import type { StateStore } from "../state/store";
import {
  managementGroupNames,
  policyInfo,
  policyState,
  toAssignment,
  toExemptions,
} from "./azure-policy-objects";
import { assignmentsInForce, exemptionsInForce } from "./propagation";
import { TryInputError, type TryOutcome } from "./try-types";

export interface AzureTryInput {
  principal: string;
  action: string;
  resource: string;
  subscription?: string;
  resourceGroup?: string;
  /** Request body fields as dotted paths (`location`, `properties.supportsHttpsTrafficOnly`, `tags.env`). */
  context?: Record<string, unknown>;
  /** A full ARM request body (PUT replaces the resource): location, kind, sku, tags, properties. */
  body?: Record<string, unknown>;
}

function resolvePrincipal(azure: AzureState, ref: string): AzurePrincipal | undefined {
  const r = ref.toLowerCase();
  return azure.principals.find(
    (p) =>
      p.objectId === r ||
      p.clientId === r ||
      p.upn?.toLowerCase() === r ||
      p.upn?.split("@")[0] === r ||
      p.displayName.toLowerCase() === r,
  );
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

function coerce(value: unknown): unknown {
  if (value === "true") return true;
  if (value === "false") return false;
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function resourceId(azure: AzureState, input: AzureTryInput): string {
  if (input.resource.startsWith("/")) return input.resource.replace(/\/+$/, "");
  const sub = azure.subscriptions.find(
    (s) => s.subscriptionId === input.subscription || s.displayName === input.subscription,
  );
  if (!sub)
    throw new TryInputError(
      `Unknown subscription '${input.subscription ?? ""}'. Pass a full resource id or --subscription.`,
    );
  const existing = azure.resources.find(
    (r) => r.name === input.resource && parseScope(r.id)?.subscriptionId === sub.subscriptionId,
  );
  if (existing) return existing.id;
  throw new TryInputError(
    `Resource '${input.resource}' not found in ${sub.displayName}; pass a full resource id to create one.`,
  );
}

const OPERATION = /^(Microsoft\.[A-Za-z]+\/[A-Za-z/]+)\/(write|delete|action|read)$/i;

export function tryAzure(store: StateStore, input: AzureTryInput, aliases: AliasTable): TryOutcome {
  const azure = store.state.azure;
  const principal = resolvePrincipal(azure, input.principal);
  if (!principal) throw new TryInputError(`Unknown principal '${input.principal}'.`);
  const rid = resourceId(azure, input);
  const parsed = parseScope(rid);
  if (parsed?.kind !== "resource") throw new TryInputError(`'${rid}' is not a resource id.`);
  const rgScope = resolveScope(
    azure,
    `/subscriptions/${parsed.subscriptionId}/resourceGroups/${parsed.resourceGroup}`,
  );
  if (!rgScope) throw new TryInputError(`Resource group '${parsed.resourceGroup}' does not exist.`);
  const typeMatch = /\/providers\/([^/]+\/[^/]+)\/([^/]+)$/.exec(rid);
  if (!typeMatch) throw new TryInputError(`'${rid}' is not a top-level resource id.`);
  const type = typeMatch[1]!;
  const name = typeMatch[2]!;
  const op = input.action.includes("/") ? input.action : `${type}/${input.action}`;
  const opMatch = OPERATION.exec(op);
  if (!opMatch)
    throw new TryInputError(
      `Action '${input.action}' must be write, delete or a full operation such as ${type}/write.`,
    );
  const verb = opMatch[2]!.toLowerCase();

  const existing = azure.resources.find((r) => sameScope(r.id, rid));
  if (verb === "delete" && !existing) throw new TryInputError(`Resource '${rid}' does not exist.`);
  const proposed: AzureResource = structuredClone(
    existing ?? {
      id: rid,
      type,
      name,
      location: azure.resourceGroups.find((g) =>
        sameScope(`/subscriptions/${g.subscriptionId}/resourceGroups/${g.name}`, rgScope),
      )?.location,
      properties: {},
    },
  );
  if (input.body) {
    const { location, kind, sku, tags, properties } = input.body as Partial<AzureResource>;
    Object.assign(proposed, {
      location: location ?? proposed.location,
      kind,
      sku,
      tags,
      properties: properties ?? {},
    });
  }
  proposed.id = rid;
  for (const [key, value] of Object.entries(input.context ?? {}))
    setPath(proposed as unknown as Record<string, unknown>, key, coerce(value));

  const chain = scopeChain(azure, rid);
  // Management-group scopes are not prefixes of resource ids: the evaluator asks for them.
  const ancestors = () => chain;
  const now = store.now();
  // Only what Azure has applied by now: new assignments and exemptions wait out their propagation.
  const applied = assignmentsInForce(store);
  const enforced = applied.filter((a) => props(a).enforcementMode !== "DoNotEnforce");
  const notEnforced = applied.filter((a) => props(a).enforcementMode === "DoNotEnforce");
  const toEvaluate = (list: ArmObject[]) =>
    list.map((a) => toAssignment(azure, a)).filter((a): a is AzureAssignment => a !== undefined);
  const exemptions = toExemptions(azure, exemptionsInForce(store));

  // Deletes are not evaluated against deny rules, as in ARM.
  const decision =
    verb === "delete"
      ? { decision: "allow" as const, audits: [] }
      : evaluateAzureRequest(proposed, toEvaluate(enforced), exemptions, now, aliases, ancestors);
  // Assignments in DoNotEnforce mode still report what they would deny.
  const reportOnly =
    verb === "delete" || notEnforced.length === 0
      ? []
      : (() => {
          const d = evaluateAzureRequest(
            proposed,
            toEvaluate(notEnforced),
            exemptions,
            now,
            aliases,
            ancestors,
          );
          return [...(d.denyingAssignment ? [d.denyingAssignment] : []), ...d.audits];
        })();

  const correlationId = randomUUID();
  const caller = principal.upn ?? principal.clientId ?? principal.objectId;
  const authorization = { action: op, scope: rid };
  const recordStates = (list: AzureAssignment[], effect: string) => {
    for (const a of list)
      azure.policyStates.push(
        policyState(azure, proposed, policyInfo(azure, a.id, effect), "NonCompliant", now),
      );
  };
  // Policy category records of an enforced effect, as the Activity Log schema describes them:
  // "Audit uses Warning and Deny uses Error", "a Deny effect returns Failed", `isComplianceCheck`
  // "False" for a request (https://learn.microsoft.com/azure/azure-monitor/essentials/activity-log-schema#policy-category).
  const recordPolicyActivity = (list: AzureAssignment[], effect: "audit" | "deny") => {
    for (const a of list)
      recordActivity(store, {
        resourceId: rid,
        operationName: `Microsoft.Authorization/policies/${effect}/action`,
        caller,
        callerObjectId: principal.objectId,
        status: effect === "deny" ? "Failed" : "Succeeded",
        category: "Policy",
        level: effect === "deny" ? "Error" : "Warning",
        correlationId,
        resourceType: type,
        authorization,
        properties: {
          isComplianceCheck: "False",
          resourceLocation: proposed.location ?? "",
          ancestors: managementGroupNames(azure, rid),
          policies: JSON.stringify([policyInfo(azure, a.id, effect)]),
        },
      });
  };

  if (decision.decision === "deny" && decision.denyingAssignment) {
    const info = policyInfo(azure, decision.denyingAssignment.id, "deny");
    const reason = decision.message ?? decision.denyingAssignment.nonComplianceMessages?.[0]?.message;
    const identifiers = JSON.stringify([
      {
        policyAssignment: { name: info.policyAssignmentDisplayName, id: info.policyAssignmentId },
        policyDefinition: { name: info.policyDefinitionDisplayName, id: info.policyDefinitionId },
      },
    ]);
    const message = reason
      ? `Resource '${name}' was disallowed by policy. Reasons: '${reason}'. See error details for policy resource IDs.`
      : `Resource '${name}' was disallowed by policy. Policy identifiers: '${identifiers}'.`;
    const error = {
      code: "RequestDisallowedByPolicy",
      target: name,
      message,
      additionalInfo: [
        { type: "PolicyViolation", info: { evaluationDetails: { evaluatedExpressions: [] }, ...info } },
      ],
    };
    recordStates([decision.denyingAssignment], "deny");
    recordPolicyActivity([decision.denyingAssignment], "deny");
    const event = recordActivity(store, {
      resourceId: rid,
      operationName: op,
      caller,
      callerObjectId: principal.objectId,
      authorization,
      status: "Failed",
      subStatus: "Forbidden",
      correlationId,
      properties: {
        statusCode: "Forbidden",
        statusMessage: JSON.stringify({ error }),
        eventCategory: "Administrative",
      },
    });
    store.changed();
    return {
      httpStatus: 403,
      allowed: false,
      body: { provider: "azure", allowed: false, error, correlationId, eventDataId: event?.eventDataId },
    };
  }

  recordStates([...decision.audits, ...reportOnly], "audit");
  // A DoNotEnforce assignment evaluates but logs nothing: "When enforcementMode is disabled,
  // resources are still evaluated. Logging, such as Activity logs, and the policy effect don't
  // occur" (https://learn.microsoft.com/azure/governance/policy/concepts/effect-disabled).
  recordPolicyActivity(decision.audits, "audit");
  if (verb === "delete") azure.resources = azure.resources.filter((r) => !sameScope(r.id, rid));
  else if (verb === "write") {
    if (existing) Object.assign(existing, proposed);
    else azure.resources.push(proposed);
  }
  const event = recordActivity(store, {
    resourceId: rid,
    operationName: op,
    caller,
    callerObjectId: principal.objectId,
    status: "Succeeded",
    correlationId,
    authorization,
    method: verb === "delete" ? "DELETE" : verb === "write" ? "PUT" : "POST",
    properties: { statusCode: verb === "write" ? (existing ? "OK" : "Created") : "OK" },
  });
  store.changed();
  return {
    httpStatus: 200,
    allowed: true,
    body: {
      provider: "azure",
      allowed: true,
      resource: verb === "delete" ? { id: rid } : proposed,
      audits: [...decision.audits, ...reportOnly].map((a) => a.id),
      correlationId,
      eventDataId: event?.eventDataId,
    },
  };
}
