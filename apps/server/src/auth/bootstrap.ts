import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/database";
import { member, organization, user } from "../db/schema/auth";
import { tenantSettings } from "../db/schema/tenants";
import type { Auth } from "./auth";

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
 * from PALISADE_ADMIN_EMAIL / PALISADE_ADMIN_PASSWORD or with a generated password.
 */
export async function bootstrapFirstTenant(
  deps: { db: Database; auth: Auth },
  admin: { email: string | undefined; password: string | undefined },
): Promise<BootstrapResult | undefined> {
  const { db, auth } = deps;
  const [existing] = await db.select({ id: organization.id }).from(organization).limit(1);
  if (existing) return undefined;

  const email = (admin.email ?? "admin@palisade.local").toLowerCase();
  const generatedPassword = admin.password ? undefined : randomBytes(12).toString("base64url");
  const password = admin.password ?? generatedPassword ?? "";

  let [adminUser] = await db.select().from(user).where(eq(user.email, email)).limit(1);
  if (!adminUser) {
    await auth.api.signUpEmail({ body: { email, password, name: "Administrator" } });
    [adminUser] = await db.select().from(user).where(eq(user.email, email)).limit(1);
  }
  if (!adminUser) throw new Error(`Could not create the administrator ${email}`);

  const tenantId = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(organization).values({ id: tenantId, name: "Default", slug: "default" });
    await tx.insert(member).values({
      id: crypto.randomUUID(),
      organizationId: tenantId,
      userId: adminUser.id,
      role: "ADMINISTRATOR",
    });
    await tx.insert(tenantSettings).values({ tenantId });
  });
  return { created: true, tenantId, adminEmail: email, generatedPassword };
}
