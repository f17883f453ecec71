import { and, eq, inArray, lte } from "drizzle-orm";
import type { Database } from "../../db/database";
import { waivers } from "./waiver-schema";

// The sweeps of the expiry and propagation jobs: they change waivers of every tenant at once.

/** Marks due waivers EXPIRED (ids from every tenant); returns the ones this call changed. */
export async function expireWaiversAnyTenant(db: Database, ids: string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(waivers)
    .set({ status: "EXPIRED" })
    .where(and(inArray(waivers.id, ids), eq(waivers.status, "ACTIVE"), lte(waivers.expiresAt, now)))
    .returning({ id: waivers.id });
  return rows.map((r) => r.id);
}

/** Waivers whose propagation has ended are honoured now (across tenants: the settle job); returns how many. */
export async function settlePropagatedWaiversAnyTenant(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(waivers)
    .set({ deploymentStatus: "ACTIVE", propagationEndsAt: null })
    .where(and(eq(waivers.deploymentStatus, "PROPAGATING"), lte(waivers.propagationEndsAt, now)))
    .returning({ id: waivers.id });
  return rows.length;
}
