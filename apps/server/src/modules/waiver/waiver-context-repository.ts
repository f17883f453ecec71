import { and, asc, eq, isNull, notInArray, sql } from "drizzle-orm";
import { user } from "../../auth/auth-schema";
import type { Database } from "../../db/database";
import { hierarchyNodes } from "../connector/connector-schema";
import { bundles, deployments } from "../deployment/deployment-schema";
import { apikey } from "../team/team-schema";
import { member, organization } from "../tenant/organization-schema";
import { tenantSettings } from "../tenant/tenant-schema";
import type { BundleRow, DeploymentRow } from "./waiver-repository";

// What a waiver request is checked against: the key's bundle and deployments, the cloud
// hierarchy, the requester's membership and the tenant's limits. Read only.

/** The bundle holding a policy key, in any tenant (the key's tenant decides, not the caller's). */
export async function findLiveBundleByKeyAnyTenant(
  db: Database,
  key: string,
): Promise<BundleRow | undefined> {
  const [row] = await db
    .select()
    .from(bundles)
    .where(and(sql`upper(${bundles.key}) = ${key.toUpperCase()}`, isNull(bundles.deletedAt)))
    .limit(1);
  return row;
}

/** Whether this tenant has (or had) a bundle with the key; its waivers outlive the bundle. */
/** The bundle a waiver belongs to, in the waiver's tenant. */
export async function findBundleOfWaiver(
  db: Database,
  tenantId: string,
  bundleId: string,
): Promise<BundleRow | undefined> {
  const [row] = await db
    .select()
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, bundleId)))
    .limit(1);
  return row;
}

export async function tenantHasKey(db: Database, tenantId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bundles.id })
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), sql`upper(${bundles.key}) = ${key.toUpperCase()}`))
    .limit(1);
  return row !== undefined;
}

/** The bundle's deployments that are (or are being) in the cloud: a removed scope takes no new waivers. */
export async function deploymentsOfBundle(
  db: Database,
  tenantId: string,
  bundleId: string,
): Promise<DeploymentRow[]> {
  return db
    .select()
    .from(deployments)
    .where(
      and(
        eq(deployments.tenantId, tenantId),
        eq(deployments.bundleId, bundleId),
        notInArray(deployments.status, ["DELETED", "DELETING"]),
      ),
    )
    .orderBy(asc(deployments.createdAt), asc(deployments.id));
}

/** The parent of a node of the tenant's cloud hierarchy (an account's OU, an OU's parent...). */
export async function parentScope(
  db: Database,
  tenantId: string,
  externalId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ parent: hierarchyNodes.parentExternalId })
    .from(hierarchyNodes)
    .where(
      and(
        eq(hierarchyNodes.tenantId, tenantId),
        sql`lower(${hierarchyNodes.externalId}) = ${externalId.toLowerCase()}`,
      ),
    )
    .limit(1);
  return row?.parent ?? undefined;
}

export async function membershipRole(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, tenantId), eq(member.userId, userId)))
    .limit(1);
  return row?.role;
}

export async function maxWaiverHours(db: Database, tenantId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ hours: tenantSettings.maxWaiverDurationHours })
    .from(tenantSettings)
    .where(eq(tenantSettings.tenantId, tenantId))
    .limit(1);
  return row?.hours;
}

/** Whether the tenant requires someone other than the requester to decide on a waiver. */
export async function requiresSeparateApprover(db: Database, tenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ required: tenantSettings.requireSeparateApprover })
    .from(tenantSettings)
    .where(eq(tenantSettings.tenantId, tenantId))
    .limit(1);
  return row?.required ?? true;
}

/** The tenant's name, as the requester is told who decides on a pending waiver. */
export async function tenantName(db: Database, tenantId: string): Promise<string> {
  const [row] = await db
    .select({ name: organization.name })
    .from(organization)
    .where(eq(organization.id, tenantId))
    .limit(1);
  return row?.name ?? "";
}

/** The person who created an API key (its owner), as its metadata records them; undefined when unknown. */
export async function apiKeyOwner(
  db: Database,
  tenantId: string,
  keyId: string,
): Promise<{ userId: string; email: string } | undefined> {
  const [key] = await db
    .select({ metadata: apikey.metadata })
    .from(apikey)
    .where(and(eq(apikey.id, keyId), eq(apikey.referenceId, tenantId)))
    .limit(1);
  let createdBy: unknown;
  try {
    createdBy = (JSON.parse(key?.metadata ?? "{}") as { createdBy?: unknown }).createdBy;
  } catch {
    return undefined;
  }
  if (typeof createdBy !== "string") return undefined;
  const [owner] = await db.select({ email: user.email }).from(user).where(eq(user.id, createdBy)).limit(1);
  return owner ? { userId: createdBy, email: owner.email } : undefined;
}
