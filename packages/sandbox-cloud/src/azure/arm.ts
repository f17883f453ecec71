import { randomUUID } from "node:crypto";
import { json, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { ArmObject, AzureState } from "../state/model";
import type { StateStore } from "../state/store";
import { recordActivity } from "./activity-log";
import { isAtOrBelow, MG_PREFIX, mgId, parseScope, resolveScope, sameScope, scopeChain } from "./scopes";
import type { TokenClaims } from "./token";

export function armError(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): SandboxResponse {
  return json(status, { error: { code, message, ...extra } }, { "x-ms-request-id": randomUUID() });
}

const ok = (body: unknown, status = 200) => json(status, body, { "x-ms-request-id": randomUUID() });

const AUTH_COLLECTIONS = {
  policydefinitions: {
    type: "Microsoft.Authorization/policyDefinitions",
    key: "policyDefinitions",
    notFound: "PolicyDefinitionNotFound",
    label: "policy definition",
  },
  policyassignments: {
    type: "Microsoft.Authorization/policyAssignments",
    key: "policyAssignments",
    notFound: "PolicyAssignmentNotFound",
    label: "policy assignment",
  },
  policyexemptions: {
    type: "Microsoft.Authorization/policyExemptions",
    key: "policyExemptions",
    notFound: "PolicyExemptionNotFound",
    label: "policy exemption",
  },
} as const;
type Collection = (typeof AUTH_COLLECTIONS)[keyof typeof AUTH_COLLECTIONS];

interface ArmContext {
  store: StateStore;
  claims: TokenClaims;
  baseUrl: string;
}

function body(req: SandboxRequest): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(req.body.toString() || "{}") as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

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

export function handleArm(ctx: ArmContext, req: SandboxRequest): SandboxResponse {
  const azure = ctx.store.state.azure;
  const path = req.path.replace(/\/+$/, "");
  if (!req.query.get("api-version")) {
    return armError(
      400,
      "MissingApiVersionParameter",
      "The api-version query parameter (?api-version=) is required for all requests.",
    );
  }

  const auth =
    /^(.*)\/providers\/Microsoft\.Authorization\/(policyDefinitions|policyAssignments|policyExemptions)(?:\/([^/]+))?$/i.exec(
      path,
    );
  if (auth) {
    const collection = AUTH_COLLECTIONS[auth[2]!.toLowerCase() as keyof typeof AUTH_COLLECTIONS];
    return authorization(
      ctx,
      req,
      auth[1] ?? "",
      collection,
      auth[3] ? decodeURIComponent(auth[3]) : undefined,
    );
  }
  const states =
    /^(.*)\/providers\/Microsoft\.PolicyInsights\/policyStates\/(latest|default)\/queryResults$/i.exec(path);
  if (states && req.method === "POST") return policyStates(ctx, req, states[1]!);
  const activity =
    /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Insights\/eventtypes\/management\/values$/i.exec(path);
  if (activity && req.method === "GET") return activityLog(ctx, req, activity[1]!);

  if (req.method !== "GET")
    return armError(405, "MethodNotAllowed", `The sandbox does not support ${req.method} on '${path}'.`);

  if (/^\/providers\/Microsoft\.Management\/managementGroups$/i.test(path)) {
    return ok({ value: azure.managementGroups.map((g) => managementGroupInfo(azure, g.name)) });
  }
  const mg =
    /^\/providers\/Microsoft\.Management\/managementGroups\/([^/]+)(\/descendants|\/subscriptions)?$/i.exec(
      path,
    );
  if (mg) {
    const scope = resolveScope(azure, mgId(mg[1]!));
    if (!scope) return armError(404, "NotFound", `Management group '${mg[1]}' not found.`);
    const name = scope.slice(MG_PREFIX.length);
    if (mg[2]?.toLowerCase() === "/descendants") return ok({ value: descendants(azure, name) });
    if (mg[2]) {
      return ok({
        value: azure.subscriptions
          .filter((s) => s.managementGroupName === name)
          .map((s) => ({
            id: `${mgId(name)}/subscriptions/${s.subscriptionId}`,
            type: "Microsoft.Management/managementGroups/subscriptions",
            name: s.subscriptionId,
            properties: {
              tenant: azure.tenantId,
              displayName: s.displayName,
              parent: { id: mgId(name) },
              state: "Active",
            },
          })),
      });
    }
    const expand = req.query.get("$expand")?.toLowerCase() === "children";
    const recurse = req.query.get("$recurse") === "true";
    return ok(managementGroupDetail(azure, name, expand, recurse));
  }
  if (/^\/subscriptions$/i.test(path))
    return ok({ value: azure.subscriptions.map((s) => subscription(azure, s)) });
  const sub = /^\/subscriptions\/([^/]+)(?:\/(resourcegroups|resources)(?:\/([^/]+))?)?$/i.exec(path);
  if (sub) {
    const s = azure.subscriptions.find((x) => x.subscriptionId.toLowerCase() === sub[1]!.toLowerCase());
    if (!s) return armError(404, "SubscriptionNotFound", `The subscription '${sub[1]}' could not be found.`);
    const what = sub[2]?.toLowerCase();
    if (!what) return ok(subscription(azure, s));
    if (what === "resources" && !sub[3]) {
      return ok({
        value: azure.resources
          .filter((r) => parseScope(r.id)?.subscriptionId === s.subscriptionId)
          .map(armResource),
      });
    }
    if (what === "resourcegroups") {
      const groups = azure.resourceGroups.filter((g) => g.subscriptionId === s.subscriptionId);
      const rgJson = (g: (typeof groups)[number]) => ({
        id: `/subscriptions/${g.subscriptionId}/resourceGroups/${g.name}`,
        name: g.name,
        type: "Microsoft.Resources/resourceGroups",
        location: g.location,
        properties: { provisioningState: "Succeeded" },
      });
      if (!sub[3]) return ok({ value: groups.map(rgJson) });
      const g = groups.find((x) => x.name.toLowerCase() === sub[3]!.toLowerCase());
      return g
        ? ok(rgJson(g))
        : armError(404, "ResourceGroupNotFound", `Resource group '${sub[3]}' could not be found.`);
    }
  }
  const rgResources = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/resources$/i.exec(path);
  if (rgResources) {
    const rgScope = resolveScope(azure, path.slice(0, -"/resources".length));
    if (!rgScope)
      return armError(404, "ResourceGroupNotFound", `Resource group '${rgResources[2]}' could not be found.`);
    return ok({
      value: azure.resources
        .filter((r) => r.id.toLowerCase().startsWith(`${rgScope.toLowerCase()}/`))
        .map(armResource),
    });
  }
  const resource = azure.resources.find((r) => sameScope(r.id, path));
  if (resource) return ok(armResource(resource));
  return armError(
    404,
    "ResourceNotFound",
    `The Resource '${path.split("/").slice(-2).join("/")}' under resource group was not found.`,
  );
}

function armResource(r: AzureState["resources"][number]) {
  return { ...r, properties: { ...(r.properties ?? {}), provisioningState: "Succeeded" } };
}

function subscription(azure: AzureState, s: AzureState["subscriptions"][number]) {
  return {
    id: `/subscriptions/${s.subscriptionId}`,
    subscriptionId: s.subscriptionId,
    tenantId: azure.tenantId,
    displayName: s.displayName,
    state: "Enabled",
    subscriptionPolicies: {
      locationPlacementId: "Public_2014-09-01",
      quotaId: "EnterpriseAgreement_2014-09-01",
      spendingLimit: "Off",
    },
    authorizationSource: "RoleBased",
    managedByTenants: [],
    tags: {},
  };
}

function managementGroupInfo(azure: AzureState, name: string) {
  const g = azure.managementGroups.find((x) => x.name === name)!;
  return {
    id: mgId(g.name),
    type: "Microsoft.Management/managementGroups",
    name: g.name,
    properties: { tenantId: azure.tenantId, displayName: g.displayName },
  };
}

function children(azure: AzureState, name: string, recurse: boolean): unknown[] {
  return [
    ...azure.managementGroups
      .filter((g) => g.parentName === name)
      .map((g) => ({
        id: mgId(g.name),
        type: "Microsoft.Management/managementGroups",
        name: g.name,
        displayName: g.displayName,
        ...(recurse ? { children: children(azure, g.name, true) } : {}),
      })),
    ...azure.subscriptions
      .filter((s) => s.managementGroupName === name)
      .map((s) => ({
        id: `/subscriptions/${s.subscriptionId}`,
        type: "/subscriptions",
        name: s.subscriptionId,
        displayName: s.displayName,
      })),
  ];
}

function managementGroupDetail(azure: AzureState, name: string, expand: boolean, recurse: boolean) {
  const g = azure.managementGroups.find((x) => x.name === name)!;
  const parent = g.parentName ? azure.managementGroups.find((x) => x.name === g.parentName) : undefined;
  return {
    ...managementGroupInfo(azure, name),
    properties: {
      tenantId: azure.tenantId,
      displayName: g.displayName,
      details: {
        version: 1,
        updatedTime: "2024-01-15T09:00:00Z",
        updatedBy: "sandbox",
        parent: parent ? { id: mgId(parent.name), name: parent.name, displayName: parent.displayName } : {},
      },
      ...(expand ? { children: children(azure, name, recurse) } : {}),
    },
  };
}

function descendants(azure: AzureState, name: string): unknown[] {
  const out: unknown[] = [];
  const walk = (parent: string) => {
    for (const g of azure.managementGroups.filter((x) => x.parentName === parent)) {
      out.push({
        id: mgId(g.name),
        type: "Microsoft.Management/managementGroups",
        name: g.name,
        properties: { displayName: g.displayName, parent: { id: mgId(parent) } },
      });
      walk(g.name);
    }
    for (const s of azure.subscriptions.filter((x) => x.managementGroupName === parent)) {
      out.push({
        id: `${mgId(parent)}/subscriptions/${s.subscriptionId}`,
        type: "Microsoft.Management/managementGroups/subscriptions",
        name: s.subscriptionId,
        properties: { displayName: s.displayName, parent: { id: mgId(parent) } },
      });
    }
  };
  walk(name);
  return out;
}

function listFilter(req: SandboxRequest): "atScope" | "atExactScope" | undefined {
  const f = req.query.get("$filter")?.replace(/\s/g, "").toLowerCase();
  if (f === "atscope()") return "atScope";
  if (f === "atexactscope()") return "atExactScope";
  return undefined;
}

function authorization(
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
    if (builtInScope) return ok({ value: [] });
    const filter = listFilter(req);
    const value = list.filter((o) => {
      const objectScope = objectScopeOf(o, collection);
      if (collection.key === "policyDefinitions") return sameScope(objectScope, scope);
      if (filter === "atExactScope") return sameScope(objectScope, scope);
      const above = isAtOrBelow(azure, scope, objectScope);
      return filter === "atScope" ? above : above || isAtOrBelow(azure, objectScope, scope);
    });
    return ok({ value });
  }

  const id = idFor(name);
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

  if (req.method === "GET") return existing ? ok(existing) : notFound();
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
    return ok(existing);
  }
  if (req.method !== "PUT")
    return armError(405, "MethodNotAllowed", `The sandbox does not support ${req.method} here.`);
  if (builtInScope)
    return armError(403, "AuthorizationFailed", "Built-in policy definitions cannot be changed.");

  const input = body(req);
  if (!input)
    return armError(
      400,
      "InvalidRequestContent",
      "The request content was invalid and could not be deserialized.",
    );
  const properties = (input.properties ?? {}) as Record<string, unknown>;
  const validation = validate(ctx, collection, scope, properties);
  if (validation) return validation;
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
  return ok(object, existing && collection.key === "policyExemptions" ? 200 : 201);
}

export function props(o: ArmObject): Record<string, unknown> {
  return (o.properties ?? {}) as Record<string, unknown>;
}

function objectScopeOf(o: ArmObject, collection: Collection): string {
  return o.id.slice(0, o.id.length - `/providers/${collection.type}/${o.name}`.length);
}

function normalise(
  collection: Collection,
  scope: string,
  p: Record<string, unknown>,
): Record<string, unknown> {
  if (collection.key === "policyDefinitions") {
    return { policyType: "Custom", mode: "All", parameters: {}, metadata: {}, ...p };
  }
  if (collection.key === "policyAssignments") {
    return { notScopes: [], parameters: {}, enforcementMode: "Default", metadata: {}, ...p, scope };
  }
  return { policyDefinitionReferenceIds: [], metadata: {}, ...p };
}

function validate(
  ctx: ArmContext,
  collection: Collection,
  scope: string,
  p: Record<string, unknown>,
): SandboxResponse | undefined {
  const azure = ctx.store.state.azure;
  if (collection.key === "policyDefinitions") {
    const rule = p.policyRule as { if?: unknown; then?: { effect?: unknown } } | undefined;
    if (!rule || typeof rule !== "object" || !rule.if || !rule.then?.effect) {
      return armError(
        400,
        "InvalidPolicyRule",
        "Failed to parse policy rule: the 'if' and 'then.effect' properties are required.",
      );
    }
    const declared = new Set(Object.keys((p.parameters ?? {}) as object).map((k) => k.toLowerCase()));
    for (const m of JSON.stringify(rule).matchAll(/parameters\('([^']+)'\)/g)) {
      if (!declared.has(m[1]!.toLowerCase())) {
        return armError(
          400,
          "InvalidPolicyParameters",
          `The policy rule references the parameter '${m[1]}' which is not defined in the policy definition.`,
        );
      }
    }
    const kind = parseScope(scope)?.kind;
    if (kind !== "subscription" && kind !== "managementGroup") {
      return armError(
        400,
        "InvalidPolicyDefinitionScope",
        "Policy definitions can be created at management group or subscription scope only.",
      );
    }
    return undefined;
  }
  if (collection.key === "policyAssignments") {
    const definitionId = String(p.policyDefinitionId ?? "");
    const definition = azure.policyDefinitions.find((d) => sameScope(d.id, definitionId));
    if (!definition) {
      return armError(
        404,
        "PolicyDefinitionNotFound",
        `The policy definition '${definitionId.split("/").pop()}' could not be found.`,
      );
    }
    const definitionScope = definition.id.slice(
      0,
      definition.id.indexOf("/providers/Microsoft.Authorization/"),
    );
    const given = new Set(Object.keys((p.parameters ?? {}) as object).map((k) => k.toLowerCase()));
    const definitionParameters = (props(definition).parameters ?? {}) as Record<
      string,
      { defaultValue?: unknown }
    >;
    for (const [name, spec] of Object.entries(definitionParameters)) {
      if (spec?.defaultValue === undefined && !given.has(name.toLowerCase())) {
        return armError(
          400,
          "MissingPolicyParameter",
          `The policy assignment is missing a value for the parameter '${name}', which has no default value.`,
        );
      }
    }
    if (!isAtOrBelow(azure, scope, definitionScope)) {
      return armError(
        400,
        "InvalidCreatePolicyAssignmentRequest",
        `The policy definition '${definition.name}' is not visible at scope '${scope}'. The definition must be at or above the assignment scope.`,
      );
    }
    if (
      p.enforcementMode !== undefined &&
      p.enforcementMode !== "Default" &&
      p.enforcementMode !== "DoNotEnforce"
    ) {
      return armError(
        400,
        "InvalidPolicyAssignmentEnforcementMode",
        "enforcementMode must be Default or DoNotEnforce.",
      );
    }
    for (const notScope of (p.notScopes as string[] | undefined) ?? []) {
      if (!scopeChain(azure, notScope).length) {
        return armError(400, "InvalidNotScopes", `The not scope '${notScope}' is not a valid scope.`);
      }
    }
    return undefined;
  }
  const assignmentId = String(p.policyAssignmentId ?? "");
  const assignment = azure.policyAssignments.find((a) => sameScope(a.id, assignmentId));
  if (!assignment) {
    return armError(
      404,
      "PolicyAssignmentNotFound",
      `The policy assignment '${assignmentId.split("/").pop()}' is not found.`,
    );
  }
  if (p.exemptionCategory !== "Waiver" && p.exemptionCategory !== "Mitigated") {
    return armError(400, "InvalidPolicyExemptionCategory", "exemptionCategory must be Waiver or Mitigated.");
  }
  if (p.expiresOn !== undefined && Number.isNaN(Date.parse(String(p.expiresOn)))) {
    return armError(400, "InvalidPolicyExemptionExpiresOn", "expiresOn must be an ISO 8601 date-time.");
  }
  const assignmentScope = String(props(assignment).scope ?? "");
  if (!isAtOrBelow(azure, scope, assignmentScope)) {
    return armError(
      400,
      "InvalidPolicyExemptionScope",
      `The exemption scope '${scope}' must be at or below the assignment scope '${assignmentScope}'.`,
    );
  }
  return undefined;
}

const TIME_FILTER = /eventTimestamp\s+(ge|le|gt|lt)\s+'([^']+)'/gi;
const EQ_FILTER =
  /(resourceGroupName|resourceUri|resourceId|correlationId|resourceProvider|status|caller)\s+eq\s+'([^']*)'/gi;

function activityLog(ctx: ArmContext, req: SandboxRequest, subscriptionId: string): SandboxResponse {
  const azure = ctx.store.state.azure;
  const sub = azure.subscriptions.find(
    (s) => s.subscriptionId.toLowerCase() === subscriptionId.toLowerCase(),
  );
  if (!sub)
    return armError(404, "SubscriptionNotFound", `The subscription '${subscriptionId}' could not be found.`);
  const filter = req.query.get("$filter") ?? "";
  let from: number | undefined;
  let to = Number.POSITIVE_INFINITY;
  for (const m of filter.matchAll(TIME_FILTER)) {
    const t = Date.parse(m[2]!);
    if (Number.isNaN(t)) return armError(400, "BadRequest", `The time '${m[2]}' in $filter is not valid.`);
    if (m[1]!.toLowerCase().startsWith("g")) from = t;
    else to = t;
  }
  if (from === undefined) {
    return armError(400, "BadRequest", "The $filter must contain eventTimestamp ge '<start time>'.");
  }
  const eq = [...filter.matchAll(EQ_FILTER)].map((m) => [m[1]!.toLowerCase(), m[2]!.toLowerCase()] as const);
  const matching = azure.activityLog
    .filter((e) => {
      if (e.subscriptionId !== sub.subscriptionId) return false;
      const t = Date.parse(e.eventTimestamp);
      if (t < from || t > to) return false;
      return eq.every(([k, v]) => {
        if (k === "resourcegroupname") return (e.resourceGroupName ?? "").toLowerCase() === v;
        if (k === "resourceuri" || k === "resourceid") return e.resourceId.toLowerCase() === v;
        if (k === "correlationid") return e.correlationId.toLowerCase() === v;
        if (k === "resourceprovider") return e.resourceProviderName.value.toLowerCase() === v;
        if (k === "status") return e.status.value.toLowerCase() === v;
        return e.caller.toLowerCase() === v;
      });
    })
    .reverse();
  const size = 200;
  const skip = req.query.get("$skipToken");
  const start = skip ? matching.findIndex((e) => e.eventDataId === skip) + 1 : 0;
  if (skip && start === 0) return armError(400, "InvalidSkipToken", "The skip token is not valid.");
  const value = matching.slice(start, start + size);
  const last = value[value.length - 1];
  if (start + size < matching.length && last) {
    const next = new URLSearchParams(req.query);
    next.set("$skipToken", last.eventDataId);
    return ok({ value, nextLink: `${ctx.baseUrl}${req.path}?${next}` });
  }
  return ok({ value });
}

function policyStates(ctx: ArmContext, req: SandboxRequest, rawScope: string): SandboxResponse {
  const azure = ctx.store.state.azure;
  const scope = resolveScope(azure, rawScope);
  if (!scope) return armError(404, "ResourceNotFound", `The scope '${rawScope}' was not found.`);
  const filter = req.query.get("$filter") ?? "";
  const eq = [...filter.matchAll(/(\w+)\s+eq\s+'([^']*)'/gi)].map(
    (m) => [m[1]!, m[2]!.toLowerCase()] as const,
  );
  const from = Date.parse(req.query.get("$from") ?? "") || ctx.store.now().getTime() - 86_400_000;
  const to = Date.parse(req.query.get("$to") ?? "") || ctx.store.now().getTime();
  const top = Number(req.query.get("$top") ?? 1000);
  const latest = new Map<string, (typeof azure.policyStates)[number]>();
  for (const s of azure.policyStates) {
    const t = Date.parse(s.timestamp);
    if (t < from || t > to || !isAtOrBelow(azure, s.resourceId, scope)) continue;
    latest.set(`${s.resourceId.toLowerCase()}|${s.policyAssignmentId.toLowerCase()}`, s);
  }
  const value = [...latest.values()]
    .filter((s) =>
      eq.every(([k, v]) => String((s as unknown as Record<string, unknown>)[k] ?? "").toLowerCase() === v),
    )
    .reverse()
    .slice(0, Number.isFinite(top) && top > 0 ? top : 1000)
    .map((s) => ({
      "@odata.id": null,
      "@odata.context": `${ctx.baseUrl}/providers/Microsoft.PolicyInsights/policyStates/$metadata#latest/$entity`,
      ...s,
    }));
  return ok({
    "@odata.context": `${ctx.baseUrl}/providers/Microsoft.PolicyInsights/policyStates/$metadata#latest`,
    "@odata.count": value.length,
    value,
  });
}
