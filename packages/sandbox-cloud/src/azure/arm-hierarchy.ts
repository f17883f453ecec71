import type { SandboxRequest, SandboxResponse } from "../http/types";
import type { AzureState } from "../state/model";
import { type ArmContext, armError, armOk } from "./arm-http";
import { armPage } from "./paging";
import { MG_PREFIX, mgId, parseScope, resolveScope, sameScope } from "./scopes";

/** GET of the hierarchy: management groups, subscriptions, resource groups and resources. */
export function readHierarchy(ctx: ArmContext, req: SandboxRequest, path: string): SandboxResponse {
  const azure = ctx.store.state.azure;
  if (req.method !== "GET")
    return armError(405, "MethodNotAllowed", `The sandbox does not support ${req.method} on '${path}'.`);

  if (/^\/providers\/Microsoft\.Management\/managementGroups$/i.test(path)) {
    return armOk({ value: azure.managementGroups.map((g) => managementGroupInfo(azure, g.name)) });
  }
  const mg =
    /^\/providers\/Microsoft\.Management\/managementGroups\/([^/]+)(\/descendants|\/subscriptions)?$/i.exec(
      path,
    );
  if (mg) {
    const scope = resolveScope(azure, mgId(mg[1]!));
    if (!scope)
      return armError(404, "ManagementGroupNotFound", `The management group '${mg[1]}' could not be found.`);
    const name = scope.slice(MG_PREFIX.length);
    if (mg[2]?.toLowerCase() === "/descendants") return armPage(ctx, req, descendants(azure, name));
    if (mg[2]) {
      return armPage(
        ctx,
        req,
        azure.subscriptions
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
      );
    }
    const expand = req.query.get("$expand")?.toLowerCase() === "children";
    const recurse = req.query.get("$recurse") === "true";
    return armOk(managementGroupDetail(azure, name, expand, recurse));
  }
  if (/^\/subscriptions$/i.test(path))
    return armPage(
      ctx,
      req,
      azure.subscriptions.map((s) => subscription(azure, s)),
    );
  const sub = /^\/subscriptions\/([^/]+)(?:\/(resourcegroups|resources)(?:\/([^/]+))?)?$/i.exec(path);
  if (sub) {
    const s = azure.subscriptions.find((x) => x.subscriptionId.toLowerCase() === sub[1]!.toLowerCase());
    if (!s) return armError(404, "SubscriptionNotFound", `The subscription '${sub[1]}' could not be found.`);
    const what = sub[2]?.toLowerCase();
    if (!what) return armOk(subscription(azure, s));
    if (what === "resources" && !sub[3]) {
      return armOk({
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
      if (!sub[3]) return armPage(ctx, req, groups.map(rgJson));
      const g = groups.find((x) => x.name.toLowerCase() === sub[3]!.toLowerCase());
      return g
        ? armOk(rgJson(g))
        : armError(404, "ResourceGroupNotFound", `Resource group '${sub[3]}' could not be found.`);
    }
  }
  const rgResources = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/resources$/i.exec(path);
  if (rgResources) {
    const rgScope = resolveScope(azure, path.slice(0, -"/resources".length));
    if (!rgScope)
      return armError(404, "ResourceGroupNotFound", `Resource group '${rgResources[2]}' could not be found.`);
    return armOk({
      value: azure.resources
        .filter((r) => r.id.toLowerCase().startsWith(`${rgScope.toLowerCase()}/`))
        .map(armResource),
    });
  }
  const resource = azure.resources.find((r) => sameScope(r.id, path));
  if (resource) return armOk(armResource(resource));
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
    state: s.state ?? "Enabled",
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
