import { json, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { AzureState } from "../state/model";
import { ARM_AUDIENCE, clientCredentialsGrant } from "./token";

/**
 * An AD FS-style authority at `/adfs`, as Azure Stack Hub deployed with AD FS offers: the Azure CLI
 * signs in a service principal against it with `--tenant adfs`
 * (https://learn.microsoft.com/en-us/azure-stack/user/azure-stack-version-profiles-azurecli2, "AD FS"),
 * and MSAL reads its discovery document at `<authority>/.well-known/openid-configuration` without
 * asking Microsoft's instance discovery. The document and the client-credentials grant follow AD FS
 * (https://learn.microsoft.com/en-us/windows-server/identity/ad-fs/overview/ad-fs-openid-connect-oauth-flows-scenarios#client-credentials-grant-flow).
 */
export function handleAdfs(
  azure: AzureState,
  req: SandboxRequest,
  baseUrl: string,
): SandboxResponse | undefined {
  const [first, ...parts] = req.path.split("/").filter(Boolean);
  if (first !== "adfs") return undefined;
  const rest = parts.join("/");
  const authority = `${baseUrl}/adfs`;
  if (req.method === "GET" && rest === ".well-known/openid-configuration") {
    return json(200, {
      issuer: authority,
      authorization_endpoint: `${authority}/oauth2/authorize/`,
      token_endpoint: `${authority}/oauth2/token/`,
      jwks_uri: `${authority}/discovery/keys`,
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic", "private_key_jwt"],
      response_types_supported: ["code", "id_token", "code id_token", "id_token token", "code token"],
      response_modes_supported: ["query", "fragment", "form_post"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      subject_types_supported: ["pairwise"],
      scopes_supported: ["openid", "profile", "email", "allatclaims"],
      id_token_signing_alg_values_supported: ["RS256"],
      access_token_issuer: `${authority}/services/trust`,
      end_session_endpoint: `${authority}/oauth2/logout`,
    });
  }
  if (req.method === "GET" && rest === "discovery/keys") return json(200, { keys: [] });
  if (req.method === "POST" && rest === "oauth2/token") {
    const form = new URLSearchParams(req.body.toString());
    // The only relying party is the sandbox's Resource Manager: a token for any other is refused
    // with RFC 6749's invalid_scope (https://www.rfc-editor.org/rfc/rfc6749#section-5.2).
    const scope = form.get("scope") ?? form.get("resource") ?? "";
    const resources = scope
      .split(" ")
      .filter((s) => s && s !== "offline_access" && s !== "openid" && s !== "profile");
    const audience = ARM_AUDIENCE.replace(/\/$/, "");
    if (resources.some((r) => r.replace(/\/\.default$/, "").replace(/\/+$/, "") !== audience)) {
      return json(400, {
        error: "invalid_scope",
        error_description: `The scope '${scope}' names no relying party of this authority; the relying party is '${audience}'.`,
      });
    }
    return clientCredentialsGrant(azure, form, `${authority}/services/trust`);
  }
  return undefined;
}
