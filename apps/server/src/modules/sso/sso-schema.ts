import { sql } from "drizzle-orm";
import { boolean, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantId, timestamps } from "../../db/columns";

/** A tenant's single sign-on policy; its identity provider is the `sso_provider` row. */
export const tenantSso = pgTable("tenant_sso", {
  tenantId: tenantId().primaryKey(),
  /** "oidc" or "saml". */
  protocol: text("protocol").notNull(),
  /** Role given to a user whom single sign-on joins to the tenant. */
  defaultRole: text("default_role").notNull().default("VIEWER"),
  /** Addresses of the verified domains may sign in by single sign-on only. */
  ssoRequired: boolean("sso_required").notNull().default(false),
  ...timestamps(),
});

/**
 * The e-mail domains a tenant's identity provider owns. A domain is used for single sign-on
 * only once verified (DNS TXT record or an instance administrator), and by one tenant only.
 */
export const tenantSsoDomain = pgTable(
  "tenant_sso_domain",
  {
    tenantId: tenantId(),
    domain: text("domain").notNull(),
    /** The value the domain's TXT record must hold. */
    verificationToken: text("verification_token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** "dns" or "instance-admin". */
    verifiedBy: text("verified_by"),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.domain] }),
    // Verified by one tenant at most; others may still claim it and wait.
    uniqueIndex("tenant_sso_domain_verified_idx").on(t.domain).where(sql`verified_at is not null`),
  ],
);
