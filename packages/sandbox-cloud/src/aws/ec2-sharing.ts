import { randomBytes } from "node:crypto";
import type { AwsResource } from "../state/model";
import type { StateStore } from "../state/store";
import { AwsError } from "./common";
import type { WireCaller } from "./wire-caller";

/**
 * What ModifyImageAttribute and ModifySnapshotAttribute share: the permissions a request adds or
 * removes, in either of the forms the Query API accepts
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifyImageAttribute.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifySnapshotAttribute.html):
 * `<Structure>.Add.N.Group` / `.UserId`, or `Attribute` + `OperationType` + `UserGroup.N` / `UserId.N`.
 * Sharing with the group `all` makes the resource public.
 */
export interface PermissionChange {
  add: { groups: string[]; userIds: string[] };
  remove: { groups: string[]; userIds: string[] };
}

export function permissionChange(
  params: URLSearchParams,
  structure: string,
  attribute: string,
): PermissionChange {
  const change: PermissionChange = { add: { groups: [], userIds: [] }, remove: { groups: [], userIds: [] } };
  for (const [name, value] of params) {
    const m = new RegExp(`^${structure}\\.(Add|Remove)\\.\\d+\\.(Group|UserId)$`).exec(name);
    if (!m) continue;
    const side = m[1] === "Add" ? change.add : change.remove;
    (m[2] === "Group" ? side.groups : side.userIds).push(value);
  }
  const operation = params.get("OperationType");
  if (params.get("Attribute") === attribute && (operation === "add" || operation === "remove")) {
    const side = change[operation];
    for (const [name, value] of params) {
      if (/^UserGroup\.\d+$/.test(name)) side.groups.push(value);
      if (/^UserId\.\d+$/.test(name)) side.userIds.push(value);
    }
  }
  return change;
}

export const makesPublic = (change: PermissionChange) => change.add.groups.includes("all");

/** Applies a change to a resource's `group`/`userIds` permission lists (stored in its properties). */
export function applyPermissions(resource: AwsResource, change: PermissionChange) {
  const groups = new Set((resource.properties.permissionGroups as string[] | undefined) ?? []);
  const users = new Set((resource.properties.permissionUserIds as string[] | undefined) ?? []);
  for (const g of change.add.groups) groups.add(g);
  for (const u of change.add.userIds) users.add(u);
  for (const g of change.remove.groups) groups.delete(g);
  for (const u of change.remove.userIds) users.delete(u);
  resource.properties.permissionGroups = [...groups];
  resource.properties.permissionUserIds = [...users];
}

/** CloudTrail's shape of a permission change: `{add: {items: [{group}|{userId}]}, remove: ...}`. */
export function permissionParameters(change: PermissionChange) {
  const items = (side: PermissionChange["add"]) => ({
    items: [...side.groups.map((group) => ({ group })), ...side.userIds.map((userId) => ({ userId }))],
  });
  return { add: items(change.add), remove: items(change.remove) };
}

/** A resource of `type` named `name` in the caller's account and Region. */
export function ownResource(
  store: StateStore,
  who: WireCaller,
  type: string,
  name: string | null,
): AwsResource | undefined {
  return store.state.aws.resources.find(
    (r) =>
      r.type === type && r.name === name && r.accountId === who.account.id && r.region === who.signed.region,
  );
}

/** An instance of the caller's account in the caller's Region, or EC2's not-found error. */
export function ownInstance(store: StateStore, who: WireCaller, instanceId: string | null): AwsResource {
  const found = ownResource(store, who, "AWS::EC2::Instance", instanceId);
  if (!found)
    throw new AwsError("InvalidInstanceID.NotFound", `The instance ID '${instanceId}' does not exist`);
  return found;
}

/** The resource types of what can be shared. */
export const SHAREABLE_TYPE = { image: "AWS::EC2::Image", snapshot: "AWS::EC2::Snapshot" } as const;

/** Records a new AMI or snapshot of the caller's account and Region, shared with no one. */
export function addShareable(
  store: StateStore,
  who: WireCaller,
  kind: keyof typeof SHAREABLE_TYPE,
  id: string,
  properties: Record<string, unknown>,
) {
  store.state.aws.resources.push({
    arn: `arn:aws:ec2:${who.signed.region}::${kind}/${id}`,
    type: SHAREABLE_TYPE[kind],
    accountId: who.account.id,
    region: who.signed.region,
    name: id,
    properties: { ...properties, permissionGroups: [], permissionUserIds: [] },
  });
}

export const ec2Id = (prefix: string) => `${prefix}-${randomBytes(9).toString("hex").slice(0, 17)}`;
