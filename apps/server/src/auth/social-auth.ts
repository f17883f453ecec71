import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { genericOAuth, oneTap } from "better-auth/plugins";
import type { Database } from "../db/database";
import type { Logger } from "../logger";
import { recordSignIn } from "./sign-in-recording";

/**
 * Social sign-in: the providers of the specification, each turned on by its client id and secret
 * in the environment, and any OpenID Connect provider by its issuer URL (generic OAuth). A social
 * account gives no tenant by itself: invitations and waiver requester domains do.
 */
export const SOCIAL_PROVIDERS = [
  "facebook",
  "github",
  "google",
  "microsoft",
  "gitlab",
  "apple",
  "discord",
  "linkedin",
  "slack",
] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const SOCIAL_PROVIDER_NAMES: Record<SocialProvider, string> = {
  facebook: "Facebook",
  github: "GitHub",
  google: "Google",
  microsoft: "Microsoft",
  gitlab: "GitLab",
  apple: "Apple",
  discord: "Discord",
  linkedin: "LinkedIn",
  slack: "Slack",
};

/** The provider id of the OpenID Connect provider configured by issuer URL. */
export const GENERIC_OIDC_ID = "oidc";

export interface SocialSignInConfig {
  providers: Partial<Record<SocialProvider, { clientId: string; clientSecret: string }>>;
  /** AUTH_MICROSOFT_TENANT_ID: "common" (any account), "organizations", "consumers" or a tenant id. */
  microsoftTenantId: string;
  /** AUTH_GITLAB_ISSUER: a self-managed GitLab's address; gitlab.com when unset. */
  gitlabIssuer: string | undefined;
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | undefined;
  /** Google One Tap on the sign-in page (AUTH_GOOGLE_ONE_TAP, on by default when Google is configured). */
  googleOneTap: boolean;
}

function urlOf(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a URL such as https://id.example.com, got "${value}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`${name} must be an http(s) URL`);
  return value.replace(/\/$/, "");
}

/** Reads AUTH_<PROVIDER>_CLIENT_ID / _CLIENT_SECRET and AUTH_OIDC_*; half a pair is an error. */
export function readSocialSignIn(env: NodeJS.ProcessEnv): SocialSignInConfig {
  const providers: SocialSignInConfig["providers"] = {};
  for (const provider of SOCIAL_PROVIDERS) {
    const prefix = `AUTH_${provider.toUpperCase()}`;
    const clientId = env[`${prefix}_CLIENT_ID`]?.trim() || "";
    const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim() || "";
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      throw new Error(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
    }
    providers[provider] = { clientId, clientSecret };
  }
  const issuer = env.AUTH_OIDC_ISSUER?.trim() || "";
  const oidcId = env.AUTH_OIDC_CLIENT_ID?.trim() || "";
  const oidcSecret = env.AUTH_OIDC_CLIENT_SECRET?.trim() || "";
  let oidc: SocialSignInConfig["oidc"];
  if (issuer || oidcId || oidcSecret) {
    if (!issuer || !oidcId || !oidcSecret) {
      throw new Error(
        "AUTH_OIDC_ISSUER, AUTH_OIDC_CLIENT_ID and AUTH_OIDC_CLIENT_SECRET must be set together",
      );
    }
    const name = env.AUTH_OIDC_NAME?.trim() || "OpenID Connect";
    if (name.length > 40) throw new Error("AUTH_OIDC_NAME must be at most 40 characters");
    oidc = { issuer: urlOf("AUTH_OIDC_ISSUER", issuer), clientId: oidcId, clientSecret: oidcSecret, name };
  }
  const gitlab = env.AUTH_GITLAB_ISSUER?.trim();
  return {
    providers,
    microsoftTenantId: env.AUTH_MICROSOFT_TENANT_ID?.trim() || "common",
    gitlabIssuer: gitlab ? urlOf("AUTH_GITLAB_ISSUER", gitlab) : undefined,
    oidc,
    googleOneTap: Boolean(providers.google) && env.AUTH_GOOGLE_ONE_TAP !== "false",
  };
}

/** What the sign-in page offers: a button per provider, in the specification's order. */
export function signInProviders(config: SocialSignInConfig): { id: string; name: string }[] {
  const list: { id: string; name: string }[] = SOCIAL_PROVIDERS.filter((p) => config.providers[p]).map(
    (id) => ({
      id,
      name: SOCIAL_PROVIDER_NAMES[id],
    }),
  );
  if (config.oidc) list.push({ id: GENERIC_OIDC_ID, name: config.oidc.name });
  return list;
}

/** Better Auth's `socialProviders` block. */
export function socialProviderOptions(config: SocialSignInConfig) {
  const { providers } = config;
  return {
    ...(providers.facebook && { facebook: providers.facebook }),
    ...(providers.github && { github: providers.github }),
    ...(providers.google && { google: providers.google }),
    ...(providers.microsoft && {
      microsoft: { ...providers.microsoft, tenantId: config.microsoftTenantId },
    }),
    ...(providers.gitlab && {
      gitlab: { ...providers.gitlab, ...(config.gitlabIssuer && { issuer: config.gitlabIssuer }) },
    }),
    ...(providers.apple && { apple: providers.apple }),
    ...(providers.discord && { discord: providers.discord }),
    ...(providers.linkedin && { linkedin: providers.linkedin }),
    ...(providers.slack && { slack: providers.slack }),
  };
}

/** The provider's name as the sign-in history shows it ("GitHub", or AUTH_OIDC_NAME). */
function providerName(config: SocialSignInConfig, id: string): string {
  if (id === GENERIC_OIDC_ID) return config.oidc?.name ?? id;
  return SOCIAL_PROVIDER_NAMES[id as SocialProvider] ?? id;
}

/**
 * Which provider signed a request in: the redirect callback (`/callback/<id>`, the generic
 * provider's too), One Tap (Google), or an ID token posted to `/sign-in/social`.
 */
function socialProviderOf(ctx: { path?: string; params?: unknown; body?: unknown }): string | undefined {
  const path = ctx.path ?? "";
  if (path.startsWith("/callback/")) {
    const id = (ctx.params as { id?: unknown } | undefined)?.id;
    return typeof id === "string" && id ? id : path.slice("/callback/".length);
  }
  if (path === "/one-tap/callback") return "google";
  if (path === "/sign-in/social") {
    const provider = (ctx.body as { provider?: unknown } | undefined)?.provider;
    return typeof provider === "string" ? provider : undefined;
  }
  return undefined;
}

/** Records social sign-ins, with the provider's name, in the sign-in history and on the session. */
function socialSignInRecording(options: SocialAuthOptions): BetterAuthPlugin {
  return {
    id: "palisade-social-sign-in-history",
    hooks: {
      after: [
        {
          matcher: (ctx) => socialProviderOf(ctx) !== undefined,
          handler: createAuthMiddleware(async (ctx) => {
            const provider = socialProviderOf(ctx);
            if (!provider) return;
            await recordSignIn(options, ctx, "social", providerName(options.socialSignIn, provider));
          }),
        },
      ],
    },
  };
}

export interface SocialAuthOptions {
  db: Database;
  logger: Logger;
  socialSignIn: SocialSignInConfig;
}

/** The sign-in history of social sign-in, and generic OpenID Connect and Google One Tap when configured. */
export function socialPlugins(options: SocialAuthOptions) {
  const config = options.socialSignIn;
  const plugins = [];
  plugins.push(socialSignInRecording(options));
  if (config.oidc) {
    plugins.push(
      genericOAuth({
        config: [
          {
            providerId: GENERIC_OIDC_ID,
            discoveryUrl: `${config.oidc.issuer}/.well-known/openid-configuration`,
            clientId: config.oidc.clientId,
            clientSecret: config.oidc.clientSecret,
            scopes: ["openid", "email", "profile"],
            pkce: true,
          },
        ],
      }),
    );
  }
  if (config.googleOneTap) plugins.push(oneTap());
  return plugins;
}

export const socialRateLimitRules = {
  "/sign-in/social": { window: 60, max: 10 },
  "/one-tap/callback": { window: 60, max: 10 },
  "/callback/*": { window: 60, max: 20 },
};
