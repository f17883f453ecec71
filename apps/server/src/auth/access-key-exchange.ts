import { createHash, randomBytes } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { and, eq, gt, lt } from "drizzle-orm";
import * as z from "zod";
import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { apikey } from "../modules/team/team-schema";
import { verification } from "./auth-schema";

/**
 * Access-key exchange: a tool holding an API key trades it for a short-lived bearer token that
 * acts with the key's tenant and role. The token is stored hashed, ends after
 * ACCESS_TOKEN_VALID_SECONDS, and stops working as soon as its key is revoked or expires.
 */

/** Exchanged tokens start with this; never with the API key prefix. */
export const ACCESS_TOKEN_PREFIX = "pals_";
export const ACCESS_TOKEN_VALID_SECONDS = 15 * 60;
const MAX_ACCESS_KEY_LENGTH = 256;
const IDENTIFIER_PREFIX = "access-key-session:";

/** What verifying an API key tells (Better Auth's apiKey plugin). */
export interface VerifiedApiKey {
  valid: boolean;
  key: { id: string; referenceId: string; name?: string | null; metadata?: unknown } | null;
}

export interface AccessKeyExchangeOptions {
  db: Database;
  logger: Logger;
  /** Checks a key: exists, enabled, not expired. */
  verifyApiKey: (key: string) => Promise<VerifiedApiKey>;
}

/** What an exchanged token stands for. */
export interface AccessTokenGrant {
  keyId: string;
  keyName: string;
  tenantId: string;
  role: string;
}

function identifierOf(token: string): string {
  return IDENTIFIER_PREFIX + createHash("sha256").update(token).digest("base64url");
}

function refused(message: string, code: string) {
  return new APIError("UNAUTHORIZED", { message, code });
}

export function accessKeyExchangePlugin(options: AccessKeyExchangeOptions): BetterAuthPlugin {
  return {
    id: "palisade-access-key-exchange",
    endpoints: {
      exchangeAccessKey: createAuthEndpoint(
        "/access-key/exchange",
        {
          method: "POST",
          body: z.object({
            accessKey: z
              .string({ error: '"accessKey" must be a string' })
              .min(1, '"accessKey" must not be empty')
              .max(MAX_ACCESS_KEY_LENGTH, `"accessKey" must not exceed ${MAX_ACCESS_KEY_LENGTH} characters`),
          }),
        },
        async (ctx) => {
          const result = await options.verifyApiKey(ctx.body.accessKey).catch(() => null);
          const metadata = (result?.key?.metadata ?? {}) as { role?: unknown };
          if (!result?.valid || !result.key || typeof metadata.role !== "string") {
            throw refused(
              "The access key is not valid: it may have been revoked or have expired. Ask a tenant administrator for a new API key.",
              "INVALID_ACCESS_KEY",
            );
          }
          const grant: AccessTokenGrant = {
            keyId: result.key.id,
            keyName: result.key.name ?? "API key",
            tenantId: result.key.referenceId,
            role: metadata.role,
          };
          const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString("base64url");
          const expiresAt = new Date(Date.now() + ACCESS_TOKEN_VALID_SECONDS * 1000);
          // Expired grants of any key go as new ones are made.
          await options.db.delete(verification).where(lt(verification.expiresAt, new Date()));
          await options.db.insert(verification).values({
            id: crypto.randomUUID(),
            identifier: identifierOf(token),
            value: JSON.stringify(grant),
            expiresAt,
          });
          options.logger.info({ component: "auth", keyId: grant.keyId }, "access key exchanged for a token");
          return ctx.json({
            token,
            tokenType: "Bearer",
            expiresAt: expiresAt.toISOString(),
            expiresIn: ACCESS_TOKEN_VALID_SECONDS,
            tenantId: grant.tenantId,
            role: grant.role,
          });
        },
      ),
    },
    rateLimit: [{ pathMatcher: (path) => path === "/access-key/exchange", window: 60, max: 10 }],
  };
}

/**
 * What an exchanged token grants, or undefined when it is unknown, expired, or its API key was
 * revoked, disabled or has expired since.
 */
export async function findAccessTokenGrant(
  db: Database,
  token: string,
): Promise<AccessTokenGrant | undefined> {
  const now = new Date();
  const [row] = await db
    .select({ value: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifierOf(token)), gt(verification.expiresAt, now)))
    .limit(1);
  if (!row) return undefined;
  const grant = JSON.parse(row.value) as AccessTokenGrant;
  const [key] = await db
    .select({ enabled: apikey.enabled, expiresAt: apikey.expiresAt })
    .from(apikey)
    .where(and(eq(apikey.id, grant.keyId), eq(apikey.referenceId, grant.tenantId)))
    .limit(1);
  if (!key || key.enabled === false || (key.expiresAt && key.expiresAt <= now)) return undefined;
  return grant;
}
