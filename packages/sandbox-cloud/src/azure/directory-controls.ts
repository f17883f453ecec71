import { randomBytes } from "node:crypto";
import { recordPolicyDelete } from "../enforce/propagation";
import { json, type SandboxResponse } from "../http/types";
import type { StateStore } from "../state/store";
import { MG_PREFIX, mgId } from "./scopes";

/**
 * Changes made to the tenant outside ARM's policy APIs, as an administrator makes them in the
 * portal: a client secret that expires (or is renewed), a management group that is deleted.
 */
export function directoryControl(
  store: StateStore,
  path: string,
  input: Record<string, unknown>,
): SandboxResponse | undefined {
  if (path === "/sandbox/control/client-secret") return clientSecretControl(store, input);
  if (path === "/sandbox/control/management-group") return managementGroupControl(store, input);
  return undefined;
}

const invalid = (code: string, message: string) => json(400, { error: { code, message } });

/**
 * `{"expire": true}` makes the connector's client secret expired: the token endpoint then answers
 * `invalid_client` with AADSTS7000222 (InvalidClientSecretExpiredKeysProvided, "The provided client
 * secret keys are expired", https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes).
 * Tokens issued before stay valid until they expire, as Entra ID's do. `{"renew": true}` replaces it
 * with a new secret, as "New client secret" in the portal does; the sandbox connector uses it.
 */
function clientSecretControl(store: StateStore, input: Record<string, unknown>): SandboxResponse {
  const azure = store.state.azure;
  const principal = azure.principals.find((p) => p.clientId === azure.connector.clientId);
  if (!principal) return invalid("NotFound", "The connector's application is not in the tenant.");
  if (input.expire === true) {
    principal.clientSecretExpired = true;
  } else if (input.renew === true) {
    const secret = randomBytes(30).toString("base64url");
    principal.clientSecret = secret;
    principal.clientSecretExpired = false;
    azure.connector.clientSecret = secret;
  } else {
    return invalid("InvalidClientSecretControl", 'Send {"expire": true} or {"renew": true}.');
  }
  store.changed();
  return json(200, { clientId: principal.clientId, expired: principal.clientSecretExpired === true });
}

/**
 * `{"delete": "online", "moveChildrenTo": "landing-zones"}` deletes a management group. Azure
 * refuses to delete one that holds children ("If a management group contains child resources, the
 * request will fail", https://learn.microsoft.com/en-us/rest/api/managementgroups/management-groups/delete),
 * so its subscriptions and groups are first moved to `moveChildrenTo`, as an administrator must
 * do. The policy definitions, assignments and exemptions stored at the group go with it.
 */
function managementGroupControl(store: StateStore, input: Record<string, unknown>): SandboxResponse {
  const azure = store.state.azure;
  const name = String(input.delete ?? "").toLowerCase();
  const group = azure.managementGroups.find((g) => g.name.toLowerCase() === name);
  if (!group || group.parentName === null) {
    return json(404, {
      error: {
        code: "ManagementGroupNotFound",
        message: `The management group '${name}' could not be found.`,
      },
    });
  }
  const target =
    input.moveChildrenTo === undefined
      ? undefined
      : azure.managementGroups.find(
          (g) => g.name.toLowerCase() === String(input.moveChildrenTo).toLowerCase(),
        );
  if (input.moveChildrenTo !== undefined && (!target || target === group)) {
    return invalid("InvalidMove", `moveChildrenTo must name another existing management group.`);
  }
  const subscriptions = azure.subscriptions.filter((s) => s.managementGroupName === group.name);
  const groups = azure.managementGroups.filter((g) => g.parentName === group.name);
  if (!target && subscriptions.length + groups.length > 0) {
    return invalid(
      "ManagementGroupHasChildren",
      `The management group '${group.name}' has children; move them to another group first.`,
    );
  }
  for (const s of subscriptions) s.managementGroupName = target!.name;
  for (const g of groups) g.parentName = target!.name;
  azure.managementGroups = azure.managementGroups.filter((g) => g !== group);
  const atGroup = `${mgId(group.name)}/providers/`.toLowerCase();
  const elsewhere = (o: { id: string }) => !o.id.toLowerCase().startsWith(atGroup);
  azure.policyDefinitions = azure.policyDefinitions.filter(elsewhere);
  for (const kind of ["policyAssignments", "policyExemptions"] as const) {
    for (const gone of azure[kind].filter((o) => !elsewhere(o))) recordPolicyDelete(store, kind, gone.id);
    azure[kind] = azure[kind].filter(elsewhere);
  }
  store.changed();
  return json(200, { deleted: `${MG_PREFIX}${group.name}`, movedTo: target?.name ?? null });
}
