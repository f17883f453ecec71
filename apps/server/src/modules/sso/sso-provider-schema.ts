// Better Auth's sso plugin table. Column names follow Better Auth's model fields.
import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { user } from "../../auth/auth-schema";
import { organization } from "../tenant/organization-schema";

/**
 * Identity providers of tenants' single sign-on (the `@better-auth/sso` plugin's model). One per
 * tenant; `domain` holds the tenant's verified domains, comma separated, and is empty until one
 * is verified. `oidc_config` carries the client secret: it is never returned by any method.
 */
export const ssoProvider = pgTable(
  "sso_provider",
  {
    id: text("id").primaryKey(),
    issuer: text("issuer").notNull(),
    oidcConfig: text("oidc_config"),
    samlConfig: text("saml_config"),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    providerId: text("provider_id").notNull().unique(),
    organizationId: text("organization_id").references(() => organization.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    domainVerified: boolean("domain_verified").notNull().default(false),
  },
  (t) => [index("sso_provider_organization_id_idx").on(t.organizationId)],
);
