import { Code, ConnectError } from "@connectrpc/connect";
import type { Tenant } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import type { Database } from "../../db/database";
import { invalidArgument } from "../../rpc/errors";
import { tenantMessage } from "./tenant-message";
import { countMembersWithoutMfa, findTenant, findTenantSettings, type TenantRow } from "./tenant-repository";

export interface TenantServiceDeps {
  db: Database;
}

/** The caller's tenant; it can vanish while a session is still open. */
export async function requireTenant(db: Database, tenantId: string): Promise<TenantRow> {
  const tenant = await findTenant(db, tenantId);
  if (!tenant) throw new ConnectError("Your tenant no longer exists.", Code.NotFound);
  return tenant;
}

/** A tenant with its settings, as the settings page and the tenant switcher show it. */
export async function loadTenantMessage(db: Database, row: TenantRow): Promise<Tenant> {
  return tenantMessage(row, await findTenantSettings(db, row.id));
}

/** The caller's own tenant for its settings page: with how many members Require MFA would stop. */
export async function loadOwnTenantMessage(db: Database, row: TenantRow): Promise<Tenant> {
  const tenant = await loadTenantMessage(db, row);
  tenant.membersWithoutMfa = await countMembersWithoutMfa(db, row.id);
  return tenant;
}

export const MAX_TENANT_NAME = 100;

/** A tenant's name as typed: trimmed, 1 to 100 characters, no control characters. */
export function readTenantName(raw: string): string {
  const name = raw.trim();
  let message: string | undefined;
  if (name.length < 1 || name.length > MAX_TENANT_NAME) {
    message = `Tenant name must be 1 to ${MAX_TENANT_NAME} characters.`;
  } else if (/\p{Cc}/u.test(name)) {
    message = "Tenant name must not contain line breaks or control characters.";
  }
  if (message) throw invalidArgument(message, [{ field: "name", message }]);
  return name;
}

/** A URL-friendly tenant slug, unique by its id suffix. */
export function tenantSlug(name: string, id: string): string {
  const base = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "tenant"}-${id.slice(0, 8)}`;
}
