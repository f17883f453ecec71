/**
 * What the identity layer reads and writes of tenants, their members and their single sign-on.
 * Those tables belong to the tenant, team and sso modules, which sit above auth/ (they import
 * its roles, sessions and identity provider), so auth/ names the functions it needs here and
 * boot/ hands them in, built on those modules' repositories.
 */
export interface TenantDirectory {
  /** Every tenant the user belongs to, with their role there, oldest membership first. */
  membershipsOf(userId: string): Promise<{ tenantId: string; role: string }[]>;
  /** Whether the tenant's Require MFA setting is on. */
  requiresMfa(tenantId: string): Promise<boolean>;
  /** The id of the tenant's own single sign-on provider (its sign-ins carry it). */
  ssoProviderIdOf(tenantId: string): string;
  /** The tenant whose verified domain this is, with its single sign-on rules. */
  ssoForDomain(
    domain: string,
  ): Promise<{ tenantId: string; ssoRequired: boolean; defaultRole: string } | undefined>;
  /** Makes a user who signed in by the tenant's single sign-on its member; false when they already were. */
  joinBySso(member: { tenantId: string; userId: string; role: string }): Promise<boolean>;
  /** Whether any tenant exists yet: on an empty database the first start creates one. */
  anyTenantExists(): Promise<boolean>;
  /** A new tenant with default settings and the user as its administrator, both or neither. */
  createTenantWithAdministrator(
    tenant: { id: string; name: string; slug: string },
    administratorUserId: string,
  ): Promise<void>;
}
