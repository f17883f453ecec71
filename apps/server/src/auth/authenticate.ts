import { rolePermissions } from "@palisade/api/roles";
import type { Database } from "../db/database";
import type { Caller } from "../rpc/call-context";
import { ACCESS_TOKEN_PREFIX, findAccessTokenGrant } from "./access-key-exchange";
import { API_KEY_PREFIX, type Auth } from "./auth";
import { mfaSetupRequired } from "./require-mfa";
import { parseRoleName } from "./roles";
import type { TenantDirectory } from "./tenant-directory";

export type Authentication =
  | { status: "anonymous" }
  | { status: "invalid"; reason: string }
  | { status: "no_tenant"; userId: string; sessionId: string }
  /** A member of a tenant that requires MFA who has not met it yet: their account page only. */
  | { status: "mfa_setup_required"; userId: string; sessionId: string }
  | { status: "ok"; caller: Caller };

/**
 * Works out who sent a request: an API key (`Authorization: Bearer pal_...`), a session
 * token (`Authorization: Bearer <token>`) or a session cookie, then the tenant they act in
 * and the permissions their role grants there.
 */
export async function authenticate(
  headers: Headers,
  deps: { auth: Auth; db: Database; tenants: TenantDirectory },
): Promise<Authentication> {
  const bearer = headers
    .get("authorization")
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
  if (bearer?.startsWith(API_KEY_PREFIX)) return authenticateApiKey(bearer, deps);
  if (bearer?.startsWith(ACCESS_TOKEN_PREFIX)) return authenticateAccessToken(bearer, deps);

  const session = await deps.auth.api.getSession({ headers });
  if (!session) {
    return bearer || headers.get("cookie")?.includes("session_token")
      ? { status: "invalid", reason: "Your session has expired or is not valid. Sign in again." }
      : { status: "anonymous" };
  }
  const memberships = await deps.tenants.membershipsOf(session.user.id);
  const active = session.session.activeOrganizationId;
  const membership = memberships.find((m) => m.tenantId === active) ?? memberships[0];
  const role = parseRoleName(membership?.role);
  if (!membership || role === undefined)
    return { status: "no_tenant", userId: session.user.id, sessionId: session.session.id };
  const setupRequired = await mfaSetupRequired(deps, {
    tenantId: membership.tenantId,
    sessionId: session.session.id,
    twoFactorEnabled: Boolean(session.user.twoFactorEnabled),
  });
  if (setupRequired)
    return { status: "mfa_setup_required", userId: session.user.id, sessionId: session.session.id };
  return {
    status: "ok",
    caller: {
      kind: "user",
      id: session.user.id,
      name: session.user.name,
      email: session.user.email,
      tenantId: membership.tenantId,
      role,
      permissions: new Set(rolePermissions[role]),
      sessionId: session.session.id,
    },
  };
}

async function authenticateApiKey(key: string, deps: { auth: Auth; db: Database }): Promise<Authentication> {
  const result = await deps.auth.api.verifyApiKey({ body: { key } });
  if (!result.valid || !result.key)
    return { status: "invalid", reason: "The API key is not valid or has expired." };
  const metadata = (result.key.metadata ?? {}) as { role?: string; createdBy?: string };
  const role = parseRoleName(metadata.role);
  if (role === undefined) return { status: "invalid", reason: "The API key has no role." };
  return {
    status: "ok",
    caller: {
      kind: "api_key",
      id: result.key.id,
      name: result.key.name ?? `API key ${result.key.start ?? ""}`.trim(),
      email: undefined,
      tenantId: result.key.referenceId,
      role,
      permissions: new Set(rolePermissions[role]),
    },
  };
}

/** A token exchanged for an API key: the key's tenant and role, while both last. */
async function authenticateAccessToken(token: string, deps: { db: Database }): Promise<Authentication> {
  const grant = await findAccessTokenGrant(deps.db, token);
  if (!grant) return { status: "invalid", reason: "The access token has expired or its key was revoked." };
  const role = parseRoleName(grant.role);
  if (role === undefined) return { status: "invalid", reason: "The API key has no role." };
  return {
    status: "ok",
    caller: {
      kind: "api_key",
      id: grant.keyId,
      name: grant.keyName,
      email: undefined,
      tenantId: grant.tenantId,
      role,
      permissions: new Set(rolePermissions[role]),
    },
  };
}
