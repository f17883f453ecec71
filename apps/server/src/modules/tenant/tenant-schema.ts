import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tenantId, timestamps } from "../../db/columns";

/** Per-tenant settings (the tenant itself is Better Auth's `organization`). */
export const tenantSettings = pgTable("tenant_settings", {
  tenantId: tenantId().primaryKey(),
  defaultWaiverApprovalMode: text("default_waiver_approval_mode").notNull().default("AUTO"),
  maxWaiverDurationHours: integer("max_waiver_duration_hours").notNull().default(72),
  waiverLinkBaseUrl: text("waiver_link_base_url").notNull().default(""),
  // Separation of duties: whoever requested a waiver cannot approve or reject it.
  requireSeparateApprover: boolean("require_separate_approver").notNull().default(true),
  /** Events older than this many days are deleted by the daily retention job. */
  eventRetentionDays: integer("event_retention_days").notNull().default(400),
  /** Audit records older than this many days are deleted by the daily retention job, oldest first. */
  auditRetentionDays: integer("audit_retention_days").notNull().default(400),
  // E-mail domains (lower case, e.g. "example.com") whose people may request waivers on their own:
  // a verified address there joins the tenant as VISITOR when it first requests one.
  waiverRequesterDomains: text("waiver_requester_domains").array().notNull().default([]),
  // Require MFA: members without an authenticator app sign in, then must set one up (or sign in
  // with a passkey) before the tenant's methods answer them.
  requireMfa: boolean("require_mfa").notNull().default(false),
  ...timestamps(),
});
