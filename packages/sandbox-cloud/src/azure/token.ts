import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { header, json, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { AzurePrincipal, AzureState } from "../state/model";

export const ARM_AUDIENCE = "https://management.azure.com";
const TOKEN_SECONDS = 3600;

export interface TokenClaims {
  tid: string;
  oid: string;
  appid: string;
  name: string;
  exp: number;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

function sign(key: string, body: string) {
  return createHmac("sha256", key).update(body).digest("base64url");
}

export function issueToken(azure: AzureState, principal: AzurePrincipal, issuer: string): string {
  // Token lifetime follows the host clock: the SDK's token cache compares against real time.
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({
    aud: ARM_AUDIENCE,
    iss: issuer,
    iat: now,
    nbf: now,
    exp: now + TOKEN_SECONDS,
    tid: azure.tenantId,
    oid: principal.objectId,
    sub: principal.objectId,
    appid: principal.clientId ?? "",
    name: principal.displayName,
    idtyp: principal.type === "User" ? "user" : "app",
  })}`;
  return `${body}.${sign(azure.tokenSigningKey, body)}`;
}

export function verifyToken(azure: AzureState, req: SandboxRequest): TokenClaims | undefined {
  const auth = header(req, "authorization") ?? "";
  if (!auth.startsWith("Bearer ")) return undefined;
  const [h, p, s] = auth.slice(7).split(".");
  if (!h || !p || !s) return undefined;
  const expected = Buffer.from(sign(azure.tokenSigningKey, `${h}.${p}`));
  const given = Buffer.from(s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as TokenClaims;
  if (claims.tid !== azure.tenantId || claims.exp * 1000 <= Date.now()) return undefined;
  return claims;
}

function aadError(status: number, error: string, code: number, description: string): SandboxResponse {
  const trace = randomUUID();
  return json(status, {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${trace} Correlation ID: ${trace} Timestamp: ${new Date().toISOString()}`,
    error_codes: [code],
    timestamp: new Date().toISOString(),
    trace_id: trace,
    correlation_id: trace,
  });
}

/**
 * The OAuth 2.0 client-credentials grant for the tenant's service principals with a client secret
 * (https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-client-creds-grant-flow).
 */
export function clientCredentialsGrant(
  azure: AzureState,
  form: URLSearchParams,
  issuer: string,
): SandboxResponse {
  if (form.get("grant_type") !== "client_credentials") {
    return aadError(
      400,
      "unsupported_grant_type",
      70003,
      "The sandbox supports the client_credentials grant only.",
    );
  }
  const clientId = form.get("client_id") ?? "";
  const principal = azure.principals.find((p) => p.clientId === clientId);
  if (!principal) {
    return aadError(
      400,
      "unauthorized_client",
      700016,
      `Application with identifier '${clientId}' was not found in the directory.`,
    );
  }
  if (!principal.clientSecret || form.get("client_secret") !== principal.clientSecret) {
    return aadError(401, "invalid_client", 7000215, "Invalid client secret provided.");
  }
  // https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes (AADSTS7000222)
  if (principal.clientSecretExpired) {
    return aadError(
      401,
      "invalid_client",
      7000222,
      `The provided client secret keys for app '${clientId}' are expired. Visit the Azure portal to create new keys for your app: https://aka.ms/NewClientSecret, or consider using certificate credentials for added security: https://aka.ms/certCreds.`,
    );
  }
  return json(200, {
    token_type: "Bearer",
    expires_in: TOKEN_SECONDS,
    ext_expires_in: TOKEN_SECONDS,
    access_token: issueToken(azure, principal, issuer),
  });
}

/** Azure AD v2 endpoints an MSAL confidential client calls for the client-credentials flow. */
export function handleIdentity(
  azure: AzureState,
  req: SandboxRequest,
  baseUrl: string,
): SandboxResponse | undefined {
  const parts = req.path.split("/").filter(Boolean);
  const tenant = parts[0];
  if (!tenant) return undefined;
  const known = tenant === azure.tenantId || tenant === "organizations" || tenant === "common";
  const rest = parts.slice(1).join("/");
  const authority = `${baseUrl}/${azure.tenantId}`;
  if (
    req.method === "GET" &&
    (rest === "v2.0/.well-known/openid-configuration" || rest === ".well-known/openid-configuration")
  ) {
    if (!known) return aadError(400, "invalid_tenant", 90002, `Tenant '${tenant}' not found.`);
    return json(200, {
      token_endpoint: `${authority}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
      jwks_uri: `${authority}/discovery/v2.0/keys`,
      response_modes_supported: ["query", "fragment", "form_post"],
      subject_types_supported: ["pairwise"],
      id_token_signing_alg_values_supported: ["RS256"],
      response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      issuer: `${authority}/v2.0`,
      request_uri_parameter_supported: false,
      userinfo_endpoint: `${baseUrl}/oidc/userinfo`,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      device_authorization_endpoint: `${authority}/oauth2/v2.0/devicecode`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      claims_supported: ["sub", "iss", "aud", "exp", "iat", "nbf", "tid", "oid"],
      tenant_region_scope: "EU",
      cloud_instance_name: "sandbox",
      cloud_graph_host_name: "graph.sandbox",
      msgraph_host: "graph.sandbox",
    });
  }
  if (req.method === "GET" && rest === "discovery/v2.0/keys") return json(200, { keys: [] });
  if (req.method === "POST" && rest === "oauth2/v2.0/token") {
    if (!known) return aadError(400, "invalid_request", 90002, `Tenant '${tenant}' not found.`);
    return clientCredentialsGrant(azure, new URLSearchParams(req.body.toString()), `${authority}/v2.0`);
  }
  return undefined;
}
