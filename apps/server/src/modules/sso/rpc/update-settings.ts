import { X509Certificate } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  SsoProtocol,
  type UpdateSettingsRequest,
  type UpdateSettingsResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { roleName } from "../../../auth/roles";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { findTenantSso, providerIdOf, saveTenantSso } from "../sso-repository";
import {
  discoverOidc,
  invalid,
  parseSsoDomains,
  readUrl,
  type SsoServiceDeps,
  spEntityIdOf,
  ssoSettingsMessage,
} from "../sso-settings";

const SAML_REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const EMAIL_NAME_ID = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

function readCertificate(raw: string): string {
  const body = raw.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    invalid("saml.certificate", "The signing certificate is not a valid X.509 certificate (PEM or base64).");
  }
  return pem;
}

function readRequired(field: string, value: string | undefined, what: string): string {
  const trimmed = value?.trim() ?? "";
  if (!trimmed) invalid(field, `${what} is required.`);
  return trimmed;
}

/** Registers or replaces the tenant's identity provider and its single sign-on policy. */
export async function updateSettings(
  deps: SsoServiceDeps,
  req: UpdateSettingsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateSettingsResponseSchema>> {
  const caller = requireCaller(ctx);
  const tenantId = caller.tenantId;
  const domains = parseSsoDomains(req.domains);
  if (domains.length === 0) invalid("domains", "List the e-mail domains your identity provider signs in.");
  if (req.defaultRole === Role.UNSPECIFIED) invalid("default_role", "Choose the role of new users.");
  const defaultRole = roleName(req.defaultRole);
  const current = await findTenantSso(deps.db, tenantId);
  const providerId = providerIdOf(tenantId);
  let protocol: "oidc" | "saml";
  let issuer: string;
  let oidcConfig: string | null = null;
  let samlConfig: string | null = null;

  if (req.protocol === SsoProtocol.OIDC) {
    protocol = "oidc";
    issuer = readUrl(
      "oidc.issuer",
      readRequired("oidc.issuer", req.oidc?.issuer, "The issuer URL"),
      "The issuer",
    );
    const clientId = readRequired("oidc.client_id", req.oidc?.clientId, "The client id");
    // Left empty, the stored secret is kept (the page never receives it).
    const stored = current?.provider?.oidcConfig ? JSON.parse(current.provider.oidcConfig) : undefined;
    const clientSecret = req.oidc?.clientSecret?.trim() || stored?.clientSecret;
    if (!clientSecret) invalid("oidc.client_secret", "The client secret is required.");
    const discovered = await discoverOidc(issuer, deps.trustedOrigins);
    oidcConfig = JSON.stringify({
      issuer,
      pkce: true,
      clientId,
      clientSecret,
      discoveryEndpoint: discovered?.discoveryEndpoint,
      authorizationEndpoint: discovered?.authorizationEndpoint,
      tokenEndpoint: discovered?.tokenEndpoint,
      jwksEndpoint: discovered?.jwksEndpoint,
      userInfoEndpoint: discovered?.userInfoEndpoint,
      tokenEndpointAuthentication: discovered?.tokenEndpointAuthentication,
      scopes: ["openid", "email", "profile"],
    });
  } else if (req.protocol === SsoProtocol.SAML) {
    protocol = "saml";
    issuer = readRequired("saml.issuer", req.saml?.issuer, "The identity provider's entity id");
    const entryPoint = readUrl(
      "saml.entry_point",
      readRequired("saml.entry_point", req.saml?.entryPoint, "The sign-in URL"),
      "The sign-in URL",
    );
    const cert = readCertificate(
      readRequired("saml.certificate", req.saml?.certificate, "The signing certificate"),
    );
    const spEntityId = spEntityIdOf(deps.publicUrl, providerId);
    samlConfig = JSON.stringify({
      issuer: spEntityId,
      audience: spEntityId,
      entryPoint,
      cert,
      callbackUrl: `${deps.publicUrl}/`,
      wantAssertionsSigned: true,
      identifierFormat: EMAIL_NAME_ID,
      idpMetadata: {
        entityID: issuer,
        cert,
        singleSignOnService: [{ Binding: SAML_REDIRECT_BINDING, Location: entryPoint }],
      },
    });
  } else {
    invalid("protocol", "Choose OpenID Connect or SAML 2.0.");
  }

  await deps.db.transaction(async (tx) => {
    await saveTenantSso(tx, {
      tenantId,
      protocol,
      defaultRole,
      ssoRequired: req.ssoRequired,
      domains,
      issuer,
      oidcConfig,
      samlConfig,
      userId: caller.kind === "user" ? caller.id : (current?.provider?.userId ?? caller.id),
    });
    // Never the client secret: the configuration itself stays out of the record.
    await recordAudit(tx, ctx, {
      target: { type: "sso", id: tenantId, name: "Single sign-on" },
      before: current
        ? {
            protocol: current.settings.protocol,
            issuer: current.provider?.issuer,
            domains: current.domains.map((d) => d.domain),
            defaultRole: current.settings.defaultRole,
            ssoRequired: current.settings.ssoRequired,
          }
        : null,
      after: { protocol, issuer, domains, defaultRole, ssoRequired: req.ssoRequired },
    });
  });
  const saved = await findTenantSso(deps.db, tenantId);
  return { settings: saved ? ssoSettingsMessage(saved, deps.publicUrl) : undefined };
}
