import type { SandboxRequest, SandboxResponse } from "../http/types";
import type { ArmObject } from "../state/model";
import { recordActivity } from "./activity-log";
import { type ArmContext, armBody, armError, armOk, props } from "./arm-http";
import { BUILT_IN_DEFINITIONS } from "./built-in-definitions";
import { armPage } from "./paging";
import { type Collection, listDefinitions, normalise, objectScopeOf } from "./policy-collections";
import { isAtOrBelow, parseScope, resolveScope, sameScope } from "./scopes";
import { validatePolicyObject } from "./validate-policy-object";

function systemData(ctx: ArmContext, existing?: Record<string, unknown>) {
  const now = ctx.store.now().toISOString();
  const by = ctx.claims.name;
  return {
    createdBy: (existing?.createdBy as string) ?? by,
    createdByType: "Application",
    createdAt: (existing?.createdAt as string) ?? now,
    lastModifiedBy: by,
    lastModifiedByType: "Application",
    lastModifiedAt: now,
  };
}

function listFilter(req: SandboxRequest): "atScope" | "atExactScope" | undefined {
  const f = req.query.get("$filter")?.replace(/\s/g, "").toLowerCase();
  if (f === "atscope()") return "atScope";
  if (f === "atexactscope()") return "atExactScope";
  return undefined;
}

/** Policy definitions, assignments and exemptions at a scope: list, read, create or replace, delete. */
export function authorization(
  ctx: ArmContext,
  req: SandboxRequest,
  rawScope: string,
  collection: Collection,
  name: string | undefined,
): SandboxResponse {
  const azure = ctx.store.state.azure;
  const list = azure[collection.key];
  const builtInScope = rawScope === "" && collection.key === "policyDefinitions";
  const scope = builtInScope ? "" : resolveScope(azure, rawScope);
  if (scope === undefined) {
    const parsed = parseScope(rawScope);
    if (parsed?.kind === "managementGroup")
      return armError(
        404,
        "ManagementGroupNotFound",
        `The management group '${parsed.managementGroup}' could not be found.`,
      );
    if (parsed?.kind === "subscription")
      return armError(
        404,
        "SubscriptionNotFound",
        `The subscription '${parsed.subscriptionId}' could not be found.`,
      );
    if (parsed?.kind === "resourceGroup")
      return armError(
        404,
        "ResourceGroupNotFound",
        `Resource group '${parsed.resourceGroup}' could not be found.`,
      );
    return armError(404, "ResourceNotFound", `The scope '${rawScope}' was not found.`);
  }
  const idFor = (n: string) => `${scope}/providers/${collection.type}/${n}`;

  if (!name) {
    if (req.method !== "GET") return armError(405, "MethodNotAllowed", "Use GET to list.");
    if (collection.key === "policyDefinitions") {
      const definitions = listDefinitions(azure, scope, req.query.get("$filter") ?? undefined);
      if (!definitions)
        return armError(400, "InvalidFilter", `The $filter '${req.query.get("$filter")}' is not supported.`);
      return armPage(ctx, req, definitions);
    }
    const filter = listFilter(req);
    const value = list.filter((o) => {
      const objectScope = objectScopeOf(o, collection);
      if (filter === "atExactScope") return sameScope(objectScope, scope);
      const above = isAtOrBelow(azure, scope, objectScope);
      return filter === "atScope" ? above : above || isAtOrBelow(azure, objectScope, scope);
    });
    return armPage(ctx, req, value);
  }

  const id = idFor(name);
  if (builtInScope) {
    if (req.method !== "GET")
      return armError(403, "AuthorizationFailed", "Built-in policy definitions cannot be changed.");
    const builtIn = BUILT_IN_DEFINITIONS.find((d) => sameScope(d.id, id));
    return builtIn
      ? armOk(builtIn)
      : armError(404, collection.notFound, `The ${collection.label} '${name}' is not found.`);
  }
  const index = list.findIndex((o) => sameScope(o.id, id));
  const existing = index >= 0 ? list[index] : undefined;
  const notFound = () =>
    armError(404, collection.notFound, `The ${collection.label} '${name}' is not found.`);
  const activity = (operation: string, method: string) =>
    recordActivity(ctx.store, {
      resourceId: id,
      operationName: `${collection.type}/${operation}`,
      caller: ctx.claims.appid || ctx.claims.name,
      callerObjectId: ctx.claims.oid,
      status: "Succeeded",
      method,
    });

  if (req.method === "GET") return existing ? armOk(existing) : notFound();
  if (req.method === "DELETE") {
    if (!existing) return { status: 204 };
    if (
      collection.key === "policyDefinitions" &&
      azure.policyAssignments.some((a) => sameScope(String(props(a).policyDefinitionId), existing.id))
    ) {
      return armError(
        400,
        "PolicyDefinitionInUse",
        `The policy definition '${name}' is in use by one or more policy assignments.`,
      );
    }
    list.splice(index, 1);
    ctx.store.changed();
    activity("delete", "DELETE");
    return armOk(existing);
  }
  if (req.method !== "PUT")
    return armError(405, "MethodNotAllowed", `The sandbox does not support ${req.method} here.`);

  const input = armBody(req);
  if (!input)
    return armError(
      400,
      "InvalidRequestContent",
      "The request content was invalid and could not be deserialized.",
    );
  const properties = (input.properties ?? {}) as Record<string, unknown>;
  const validation = validatePolicyObject(ctx, collection, scope, properties);
  if (validation) return validation;
  if (!existing && collection.key === "policyExemptions") {
    const limit = ctx.limits.policyExemptionsPerScope;
    const atScope = list.filter((o) => sameScope(objectScopeOf(o, collection), scope)).length;
    if (atScope >= limit) {
      return armError(
        400,
        "PolicyExemptionQuotaExceeded",
        `The policy exemption '${name}' could not be created: the scope '${scope}' already has the maximum of ${limit} policy exemptions. Delete policy exemptions that are no longer needed at this scope and try again.`,
      );
    }
  }
  const object: ArmObject = {
    ...(collection.key === "policyAssignments" && input.location ? { location: input.location } : {}),
    ...(input.identity ? { identity: input.identity } : {}),
    properties: normalise(collection, scope, properties),
    id,
    type: collection.type,
    name,
    systemData: systemData(ctx, existing?.systemData as Record<string, unknown> | undefined),
  };
  if (existing) list[index] = object;
  else list.push(object);
  ctx.store.changed();
  activity("write", "PUT");
  // ARM answers 201 to every PUT of a policy definition or assignment, new or replaced (the SDKs
  // accept nothing else); only exemptions answer 200 when replaced.
  return armOk(object, existing && collection.key === "policyExemptions" ? 200 : 201);
}
