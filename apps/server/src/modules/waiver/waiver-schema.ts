import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "../../db/columns";
import { deployments, type ManagedBy } from "../deployment/deployment-schema";

/** Time-limited exceptions to a deployed policy, requested with its key; owned by the waiver module. */
export const waivers = pgTable(
  "waivers",
  {
    id: id(),
    tenantId: tenantId(),
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    policyKey: text("policy_key").notNull(),
    createSource: text("create_source").notNull(),
    requesterName: text("requester_name").notNull(),
    requesterIdentifier: text("requester_identifier").notNull(),
    requesterUserId: text("requester_user_id"),
    comment: text("comment").notNull(),
    durationSeconds: integer("duration_seconds").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** The scope the waiver applies to, or the single resource it exempts. */
    scope: text("scope"),
    resource: text("resource"),
    /** AWS only: the IAM principal the deny no longer applies to (instead of a scope or resource). */
    principalArn: text("principal_arn"),
    /** Sent by the request page so that a double-submitted form creates one waiver. */
    idempotencyKey: text("idempotency_key"),
    status: text("status").notNull(),
    approvalType: text("approval_type").notNull(),
    reviewerName: text("reviewer_name"),
    reviewerIdentifier: text("reviewer_identifier"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    /** When it was cancelled (by a person, by deleting it, or with its policy's deployment). */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Whether the cloud has received it: PENDING | PROPAGATING (received, not enforced yet) | ACTIVE | FAILED. */
    deploymentStatus: text("deployment_status").notNull().default("PENDING"),
    /** While PROPAGATING: when the cloud is expected to honour it (Azure). */
    propagationEndsAt: timestamp("propagation_ends_at", { withTimezone: true }),
    errorCode: text("error_code"),
    /** The change or incident ticket the waiver was granted for; empty when none. */
    ticketReference: text("ticket_reference").notNull().default(""),
    /** A pre-approved waiver applied from a file ({ path, commit }); null otherwise. */
    managedBy: jsonb("managed_by").$type<ManagedBy>(),
    ...timestamps(),
  },
  (t) => [
    index("waivers_tenant_idx").on(t.tenantId),
    index("waivers_deployment_idx").on(t.deploymentId),
    index("waivers_policy_key_idx").on(t.policyKey),
    index("waivers_status_expires_idx").on(t.status, t.expiresAt),
    index("waivers_idempotency_idx").on(t.requesterIdentifier, t.idempotencyKey),
  ],
);
