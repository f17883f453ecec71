import { sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { complianceObservations } from "./event-schema";

export interface ComplianceObservation {
  bundleId: string;
  deploymentId: string;
  resourceExternalId: string;
  compliant: boolean;
  observedAt: Date;
}

/** Keeps each resource's newest compliance state per deployment and day, for the trend. */
export async function recordObservations(
  db: Database,
  tenantId: string,
  observations: ComplianceObservation[],
): Promise<void> {
  for (let i = 0; i < observations.length; i += 1000) {
    await db
      .insert(complianceObservations)
      .values(
        observations.slice(i, i + 1000).map((o) => ({
          tenantId,
          bundleId: o.bundleId,
          deploymentId: o.deploymentId,
          resourceExternalId: o.resourceExternalId,
          day: o.observedAt.toISOString().slice(0, 10),
          compliant: o.compliant,
          observedAt: o.observedAt,
        })),
      )
      .onConflictDoUpdate({
        target: [
          complianceObservations.deploymentId,
          complianceObservations.resourceExternalId,
          complianceObservations.day,
        ],
        set: { compliant: sql`excluded.compliant`, observedAt: sql`excluded.observed_at` },
        setWhere: sql`${complianceObservations.observedAt} <= excluded.observed_at`,
      });
  }
}
