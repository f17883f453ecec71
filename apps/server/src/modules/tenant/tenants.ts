import { Code, ConnectError } from "@connectrpc/connect";
import type { Tenant } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import type { Database } from "../../db/database";
import { tenantMessage } from "./tenant-message";
import { findTenant, findTenantSettings, type TenantRow } from "./tenant-repository";

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
