import { randomBytes } from "node:crypto";
import type { Database } from "../db/database";
import type { Auth } from "./auth";
import { ensureInstanceAdmin } from "./instance-admin";
import type { TenantDirectory } from "./tenant-directory";
import { findUserByEmail } from "./user-repository";

export interface BootstrapResult {
  /** Set when this start created the tenant. */
  created: boolean;
  tenantId: string;
  adminEmail: string;
  /** Set only when the password was generated here; shown to the operator once. */
  generatedPassword?: string;
}

/**
 * First start on an empty database: creates tenant "Default" and its first administrator,
 * from PALISADE_ADMIN_EMAIL / PALISADE_ADMIN_PASSWORD or with a generated password. That
 * administrator is the instance administrator.
 */
export async function bootstrapFirstTenant(
  deps: { db: Database; auth: Auth; tenants: TenantDirectory },
  admin: { email: string | undefined; password: string | undefined },
): Promise<BootstrapResult | undefined> {
  const { db } = deps;
  if (await deps.tenants.anyTenantExists()) {
    await ensureInstanceAdmin(db);
    return undefined;
  }
  const created = await createFirstTenant(deps, admin);
  await ensureInstanceAdmin(db);
  return created;
}

async function createFirstTenant(
  deps: { db: Database; auth: Auth; tenants: TenantDirectory },
  admin: { email: string | undefined; password: string | undefined },
): Promise<BootstrapResult> {
  const { db, auth } = deps;

  const email = (admin.email ?? "admin@palisade.local").toLowerCase();
  const generatedPassword = admin.password ? undefined : randomBytes(12).toString("base64url");
  const password = admin.password ?? generatedPassword ?? "";

  let adminUser = await findUserByEmail(db, email);
  if (!adminUser) {
    const created = await auth.api.signUpEmail({ body: { email, password, name: "Administrator" } });
    // The operator chose this address, so it counts as proven: the administrator may sign in
    // with an e-mailed code without Better Auth treating the account as unclaimed.
    await (await auth.$context).internalAdapter.updateUser(created.user.id, { emailVerified: true });
    adminUser = await findUserByEmail(db, email);
  }
  if (!adminUser) throw new Error(`Could not create the administrator ${email}`);

  const tenantId = crypto.randomUUID();
  await deps.tenants.createTenantWithAdministrator(
    { id: tenantId, name: "Default", slug: "default" },
    adminUser.id,
  );
  return { created: true, tenantId, adminEmail: email, generatedPassword };
}
