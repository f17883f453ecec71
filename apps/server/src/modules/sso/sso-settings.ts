import { BlockList, isIP } from "node:net";
import { discoverOIDCConfig } from "@better-auth/sso";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ConnectError } from "@connectrpc/connect";
import type { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import {
  type SsoDomain,
  SsoDomainSchema,
  SsoProtocol,
  type SsoSettings,
  SsoSettingsSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { parseRoleName } from "../../auth/roles";
import type { SocialSignInConfig } from "../../auth/social-auth";
import type { Database } from "../../db/database";
import { invalidArgument } from "../../rpc/errors";
import { isDomainName } from "../tenant/tenant-api";
import { providerIdOf, type SsoDomainRow, type TenantSsoRecord } from "./sso-repository";

export interface SsoServiceDeps {
  db: Database;
  publicUrl: string;
  /** Identity providers on private addresses that the operator allows (SSO_TRUSTED_ORIGINS). */
  trustedOrigins: string[];
  socialSignIn: SocialSignInConfig;
}

export const MAX_SSO_DOMAINS = 20;
/** The DNS TXT record proving a domain: `_palisade-sso.<domain>` holding this prefix and the token. */
export const DNS_RECORD_PREFIX = "_palisade-sso";
export const DNS_VALUE_PREFIX = "palisade-sso-verification=";

export function invalid(field: string, message: string): never {
  throw invalidArgument(message, [{ field, message }]);
}

/** The domains as typed: trimmed, lower case, "@" dropped, no duplicates; the first bad one refused. */
export function parseSsoDomains(raw: readonly string[]): string[] {
  const domains: string[] = [];
  for (const entry of raw) {
    const domain = entry.trim().toLowerCase().replace(/^@/, "");
    if (!domain) continue;
    if (!isDomainName(domain)) {
      invalid("domains", `"${entry.slice(0, 60)}" is not an e-mail domain; write it like example.com.`);
    }
    if (!domains.includes(domain)) domains.push(domain);
  }
  if (domains.length > MAX_SSO_DOMAINS) invalid("domains", `List at most ${MAX_SSO_DOMAINS} domains.`);
  return domains;
}

// Private, loopback, link-local and other non-public ranges (cloud metadata addresses included).
const privateRanges = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) {
  privateRanges.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const) {
  privateRanges.addSubnet(net, prefix, "ipv6");
}

/** Whether the server may fetch this URL: a public host, or an origin the operator trusts. */
export async function mayFetch(url: string, trustedOrigins: readonly string[]): Promise<boolean> {
  const parsed = new URL(url);
  if (trustedOrigins.includes(parsed.origin)) return true;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) return false;
  const literal = isIP(host);
  if (literal) return !privateRanges.check(host, literal === 6 ? "ipv6" : "ipv4");
  const { lookup } = await import("node:dns/promises");
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.every((a) => !privateRanges.check(a.address, a.family === 6 ? "ipv6" : "ipv4"));
  } catch {
    return false;
  }
}

export function readUrl(field: string, value: string, what: string): string {
  const trimmed = value.trim();
  if (!URL.canParse(trimmed) || !/^https?:$/.test(new URL(trimmed).protocol)) {
    invalid(field, `${what} must be an https URL such as https://id.example.com.`);
  }
  return trimmed.replace(/\/$/, "");
}

/** The provider's endpoints from its discovery document, read once when it is registered. */
export async function discoverOidc(issuer: string, trustedOrigins: readonly string[]) {
  const allowed = async (url: string) => mayFetch(url, trustedOrigins);
  if (!(await allowed(issuer))) {
    invalid(
      "oidc.issuer",
      "The issuer is on a private address. Ask the operator to add its origin to SSO_TRUSTED_ORIGINS.",
    );
  }
  try {
    const discovered = await discoverOIDCConfig({ issuer, isTrustedOrigin: () => true, timeout: 10_000 });
    for (const url of [discovered.tokenEndpoint, discovered.jwksEndpoint, discovered.userInfoEndpoint]) {
      if (url && !(await allowed(url))) {
        invalid("oidc.issuer", `The provider's endpoint ${new URL(url).origin} is on a private address.`);
      }
    }
    return discovered;
  } catch (error) {
    if (error instanceof ConnectError) throw error;
    invalid(
      "oidc.issuer",
      `Could not read ${issuer}/.well-known/openid-configuration: ${(error as Error).message}. Check the issuer URL.`,
    );
  }
}

export function ssoDomainMessage(row: SsoDomainRow): SsoDomain {
  return create(SsoDomainSchema, {
    domain: row.domain,
    verified: Boolean(row.verifiedAt),
    verifiedBy: row.verifiedBy ?? "",
    verifiedAt: row.verifiedAt ? timestampFromDate(row.verifiedAt) : undefined,
    recordName: `${DNS_RECORD_PREFIX}.${row.domain}`,
    recordValue: `${DNS_VALUE_PREFIX}${row.verificationToken}`,
  });
}

interface StoredOidc {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
}
interface StoredSaml {
  entryPoint?: string;
  cert?: string;
  idpMetadata?: { entityID?: string };
}

function parseJson<T>(raw: string | null | undefined): T | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** The tenant's configuration as the settings page shows it: never the client secret. */
export function ssoSettingsMessage(record: TenantSsoRecord, publicUrl: string): SsoSettings {
  const providerId = providerIdOf(record.settings.tenantId);
  const oidc = parseJson<StoredOidc>(record.provider?.oidcConfig);
  const saml = parseJson<StoredSaml>(record.provider?.samlConfig);
  const protocol = record.settings.protocol === "saml" ? SsoProtocol.SAML : SsoProtocol.OIDC;
  return create(SsoSettingsSchema, {
    protocol,
    oidc: oidc ? { issuer: oidc.issuer ?? "", clientId: oidc.clientId ?? "", clientSecret: "" } : undefined,
    saml: saml
      ? {
          issuer: saml.idpMetadata?.entityID ?? record.provider?.issuer ?? "",
          entryPoint: saml.entryPoint ?? "",
          certificate: saml.cert ?? "",
        }
      : undefined,
    domains: record.domains.map(ssoDomainMessage),
    defaultRole: (parseRoleName(record.settings.defaultRole) ?? 0) as Role,
    ssoRequired: record.settings.ssoRequired,
    clientSecretSet: Boolean(oidc?.clientSecret),
    redirectUrl: `${publicUrl}/api/auth/sso/callback/${providerId}`,
    acsUrl: `${publicUrl}/api/auth/sso/saml2/sp/acs/${providerId}`,
    spEntityId: spEntityIdOf(publicUrl, providerId),
    spMetadataUrl: `${publicUrl}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`,
  });
}

export function spEntityIdOf(publicUrl: string, providerId: string): string {
  return `${publicUrl}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`;
}

/** Whether the domain's TXT record holds the token. */
export async function dnsRecordHolds(
  domain: string,
  token: string,
): Promise<{ ok: boolean; message: string }> {
  const { resolveTxt } = await import("node:dns/promises");
  const name = `${DNS_RECORD_PREFIX}.${domain}`;
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      ok: false,
      message:
        code === "ENOTFOUND" || code === "ENODATA"
          ? `No TXT record found at ${name}. Add it at your DNS provider; changes can take a while to appear.`
          : `Could not look up ${name} (${code ?? "DNS error"}). Try again later.`,
    };
  }
  const expected = `${DNS_VALUE_PREFIX}${token}`;
  if (records.some((parts) => parts.join("") === expected)) return { ok: true, message: "" };
  return { ok: false, message: `The TXT record at ${name} does not hold ${expected}.` };
}
