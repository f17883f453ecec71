import type { Logger } from "../logger";
import { requestOrigin } from "./sign-in-recording";

/**
 * The identity layer's endpoints that change how an account signs in, named as the audit log
 * names them. Each success is a security event of the account, recorded in every tenant the
 * account belongs to (the identity layer stores the change itself, so the record follows it).
 */
export const ACCOUNT_SECURITY_CHANGES: Record<string, string> = {
  "/change-password": "Account.ChangePassword",
  "/change-email": "Account.ChangeEmail",
  "/two-factor/enable": "Account.SetUpAuthenticatorApp",
  "/two-factor/disable": "Account.RemoveAuthenticatorApp",
  "/two-factor/generate-backup-codes": "Account.RegenerateBackupCodes",
  "/passkey/verify-registration": "Account.AddPasskey",
  "/passkey/delete-passkey": "Account.DeletePasskey",
  "/phone-number/verify": "Account.VerifyPhoneNumber",
};

export interface AccountSecurityChange {
  user: { id: string; name: string; email: string };
  /** One of ACCOUNT_SECURITY_CHANGES' names. */
  action: string;
  ip?: string | null;
  userAgent?: string | null;
}

/** Writes an account's security change to the audit log of each of its tenants. */
export type AuditAccountChange = (change: AccountSecurityChange) => Promise<void>;

interface HookContext {
  path?: string;
  request?: Request;
  headers?: Headers;
  context: {
    returned?: unknown;
    session?: { user: { id: string; name?: string | null; email: string } } | null;
  };
}

/**
 * After an identity-layer call: when it changed how the signed-in account signs in, the change
 * is audited before the answer leaves. The account's change is already stored and stands whatever
 * happens to the record, whose failure is logged.
 */
export async function auditAccountSecurityChange(
  options: { logger: Logger; auditAccountChange?: AuditAccountChange },
  ctx: HookContext,
  succeeded: boolean,
): Promise<void> {
  const action = ACCOUNT_SECURITY_CHANGES[ctx.path ?? ""];
  const user = ctx.context.session?.user;
  if (!action || !succeeded || !user || !options.auditAccountChange) return;
  const origin = requestOrigin(ctx);
  try {
    await options.auditAccountChange({
      user: { id: user.id, name: user.name ?? user.email, email: user.email },
      action,
      ip: origin.ipAddress ?? null,
      userAgent: origin.userAgent ?? null,
    });
  } catch (error) {
    options.logger.error(
      { component: "auth", action, err: (error as Error).message },
      "an account's security change was not audited",
    );
  }
}
