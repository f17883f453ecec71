import { sso } from "@better-auth/sso";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { recordSignIn } from "./sign-in-recording";
import type { TenantDirectory } from "./tenant-directory";

/**
 * Single sign-on per tenant (`@better-auth/sso`): OpenID Connect and SAML 2.0 identity
 * providers registered on the tenant settings page (modules/sso), matched by the verified
 * e-mail domains of their tenant. Each export is one block of the configuration in auth.ts.
 */
export interface SsoAuthOptions {
  db: Database;
  logger: Logger;
  tenants: TenantDirectory;
}

/**
 * Providers are registered, listed and verified through Palisade's own methods (SsoService), which
 * check the tenant permission and never return the client secret; the plugin's own are closed.
 */
export const ssoDisabledPaths = [
  "/sso/register",
  "/sso/providers",
  "/sso/get-provider",
  "/sso/update-provider",
  "/sso/delete-provider",
  "/sso/request-domain-verification",
  "/sso/verify-domain",
];

export const ssoRateLimitRules = {
  "/sign-in/sso": { window: 60, max: 10 },
  "/sso/callback/*": { window: 60, max: 20 },
  "/sso/saml2/sp/acs/*": { window: 60, max: 20 },
};

/**
 * The OAuth state cookie must reach the callback, a top-level navigation coming back from the
 * identity provider's site, which a SameSite=Strict cookie would not. The session cookie stays Strict.
 */
export const ssoCookieOptions = { state: { attributes: { sameSite: "lax" as const } } };

/** Paths that sign an address in (or send it something to sign in with) by another method. */
const OTHER_METHOD_PATHS = new Set([
  "/sign-in/email",
  "/sign-up/email",
  "/sign-in/email-otp",
  "/email-otp/send-verification-otp",
  "/request-password-reset",
  "/sign-in/magic-link",
  "/enchanted-link/send",
  "/whatsapp-link/send",
  "/send-verification-email",
]);

export function domainOf(email: string): string {
  return email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
}

/** The sentence shown when an address must use its organisation's single sign-on. */
export function ssoRequiredMessage(domain: string): string {
  return `Addresses at ${domain} sign in with your organisation's single sign-on. Choose "Continue with SSO".`;
}

/** Refuses password, codes and links for addresses of a tenant that requires single sign-on. */
function ssoRequiredPolicy(options: SsoAuthOptions): BetterAuthPlugin {
  return {
    id: "palisade-sso-required",
    hooks: {
      before: [
        {
          matcher: (ctx) => OTHER_METHOD_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as { email?: unknown };
            if (typeof body.email !== "string" || !body.email.includes("@")) return;
            const domain = domainOf(body.email);
            const tenant = await options.tenants.ssoForDomain(domain);
            if (!tenant?.ssoRequired) return;
            throw new APIError("FORBIDDEN", { message: ssoRequiredMessage(domain), code: "SSO_REQUIRED" });
          }),
        },
      ],
    },
  };
}

/** The callback paths of each protocol: the identity provider's answer signs the person in there. */
const SSO_CALLBACKS = [
  { prefix: "/sso/callback", method: "sso-oidc" },
  { prefix: "/sso/saml2/sp/acs", method: "sso-saml" },
] as const;

/** The provider a callback path names ("tenant-<id>"), or none for the shared callback. */
function providerOfPath(path: string, prefix: string, params: unknown): string | undefined {
  const param = (params as { providerId?: unknown } | undefined)?.providerId;
  if (typeof param === "string" && param) return param;
  const rest = path.slice(prefix.length + 1);
  return rest && !rest.startsWith(":") ? rest : undefined;
}

/** Records single sign-on sign-ins (OpenID Connect, SAML) in the sign-in history and on the session. */
function ssoSignInRecording(options: SsoAuthOptions): BetterAuthPlugin {
  const callbackOf = (path: string | undefined) =>
    SSO_CALLBACKS.find((c) => path === c.prefix || path?.startsWith(`${c.prefix}/`));
  return {
    id: "palisade-sso-sign-in-history",
    hooks: {
      after: [
        {
          matcher: (ctx) => Boolean(callbackOf(ctx.path)),
          handler: createAuthMiddleware(async (ctx) => {
            const callback = callbackOf(ctx.path);
            if (!callback) return;
            const provider = providerOfPath(ctx.path ?? "", callback.prefix, ctx.params);
            await recordSignIn(options, ctx, callback.method, provider);
          }),
        },
      ],
    },
  };
}

export function ssoPlugins(options: SsoAuthOptions) {
  return [
    sso({
      domainVerification: { enabled: true },
      // Members are made by provisionUser with the tenant's own default role.
      organizationProvisioning: { disabled: true },
      providersLimit: 0,
      provisionUserOnEveryLogin: true,
      async provisionUser({ user, provider }) {
        const tenantId = provider.organizationId;
        if (!tenantId) return;
        // Only an address of one of the tenant's verified domains joins the tenant.
        const sso = await options.tenants.ssoForDomain(domainOf(user.email));
        if (!sso || sso.tenantId !== tenantId) {
          options.logger.info(
            { component: "auth", tenantId },
            "single sign-on: address outside the tenant's domains",
          );
          return;
        }
        const joined = await options.tenants.joinBySso({
          tenantId,
          userId: user.id,
          role: sso.defaultRole,
        });
        if (joined)
          options.logger.info(
            { component: "auth", tenantId, userId: user.id },
            "single sign-on joined a member",
          );
      },
    }),
    ssoRequiredPolicy(options),
    ssoSignInRecording(options),
  ];
}
