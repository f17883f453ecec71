import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { bearer, organization } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";
import type { Database } from "../db/database";
import * as authSchema from "../db/schema/auth";
import type { Logger } from "../logger";
import { authLog } from "./credential-failure-log";

/** Prefix of Palisade API keys; a bearer credential with it is an API key, not a session. */
export const API_KEY_PREFIX = "pal_";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

// Better Auth checks its own organisation endpoints (invite, change role) with these
// statements; Palisade's RPCs use the permission table of the contract instead.
const ac = createAccessControl({ ...defaultStatements, apiKey: ["create", "read", "update", "delete"] });
const administrator = ac.newRole({
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
  apiKey: ["create", "read", "update", "delete"],
});
const noOrganizationRights = ac.newRole({ organization: [], member: [], invitation: [], apiKey: [] });

export interface AuthOptions {
  db: Database;
  secret: string;
  publicUrl: string;
  trustedOrigins: string[];
  logger: Logger;
}

export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: "Palisade",
    logger: authLog(options.logger),
    baseURL: options.publicUrl,
    basePath: "/api/auth",
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    database: drizzleAdapter(options.db, { provider: "pg", schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    session: {
      // Sessions last a week and are extended once a day while in use.
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      cookieCache: { enabled: false },
    },
    advanced: {
      cookiePrefix: "palisade",
      database: { generateId: () => crypto.randomUUID() },
    },
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 120,
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 5 },
        "/api-key/verify": false,
      },
    },
    plugins: [
      organization({
        ac,
        roles: {
          ADMINISTRATOR: administrator,
          EDITOR: noOrganizationRights,
          MODERATOR: noOrganizationRights,
          VIEWER: noOrganizationRights,
          VISITOR: noOrganizationRights,
          INTEGRATOR: noOrganizationRights,
        },
        creatorRole: "ADMINISTRATOR",
        // Tenants are created by the server (bootstrap) and administrators invite members.
        allowUserToCreateOrganization: false,
      }),
      bearer(),
      apiKey({
        references: "organization",
        defaultPrefix: API_KEY_PREFIX,
        enableMetadata: true,
        rateLimit: { enabled: false },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
