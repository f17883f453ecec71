import type { AccountSecurityChange, AuditAccountChange } from "../../auth/account-security-changes";
import type { Database } from "../../db/database";
import { recordChange } from "./audit-log";

/**
 * Records an account's security change in the audit log of every tenant it belongs to, in one
 * transaction: each tenant's administrators see what changed on their members' accounts.
 */
export function createAccountSecurityAudit(
  db: Database,
  tenantsOf: (db: Database, userId: string) => Promise<{ id: string }[]>,
): AuditAccountChange {
  return async (change: AccountSecurityChange): Promise<void> => {
    const tenants = await tenantsOf(db, change.user.id);
    if (tenants.length === 0) return;
    await db.transaction(async (tx) => {
      for (const tenant of tenants) {
        await recordChange(
          tx,
          {
            actor: { tenantId: tenant.id, type: "user", id: change.user.id, name: change.user.name },
            action: change.action,
            ip: change.ip,
            userAgent: change.userAgent,
          },
          { target: { type: "account", id: change.user.id, name: change.user.email } },
        );
      }
    });
  };
}
