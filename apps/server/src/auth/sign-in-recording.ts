import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { markSessionSignIn } from "./session-repository";
import { insertSignInEvent } from "./sign-in-history-repository";

/** The part of a Better Auth hook context a sign-in record reads. */
interface SignInContext {
  request?: Request;
  headers?: Headers;
  context: { newSession?: { user: { id: string }; session: { id: string } } | null };
}

/** Where a request came from, as the sign-in history keeps it. */
export function requestOrigin(ctx: Pick<SignInContext, "request" | "headers">) {
  const headers = ctx.request?.headers ?? ctx.headers;
  return {
    ipAddress: headers?.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined,
    userAgent: headers?.get("user-agent") ?? undefined,
  };
}

/**
 * A sign-in that made a session: a row of the account's sign-in history, and the method and
 * provider written on the session itself (Require MFA accepts a passkey session, and one signed
 * in by the tenant's own single sign-on). Never stops the sign-in: a failure is only logged.
 */
export async function recordSignIn(
  options: { db: Database; logger: Logger },
  ctx: SignInContext,
  method: string,
  provider?: string,
): Promise<void> {
  const newSession = ctx.context.newSession;
  if (!newSession) return;
  try {
    await insertSignInEvent(options.db, {
      userId: newSession.user.id,
      method,
      provider,
      success: true,
      ...requestOrigin(ctx),
    });
    await markSessionSignIn(options.db, newSession.session.id, method, provider);
  } catch (error) {
    options.logger.warn({ component: "auth", err: (error as Error).message }, "sign-in not recorded");
  }
}
