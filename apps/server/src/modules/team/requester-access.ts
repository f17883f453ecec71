import { Code, ConnectError } from "@connectrpc/connect";
import type { Database } from "../../db/database";
import { invalidArgument } from "../../rpc/errors";
import { findTenantSettings, inRequesterDomains, requireTenant } from "../tenant/tenant-api";
import { findLiveBundleByKeyAnyTenant, parseKey } from "../waiver/waiver-api";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
const MAX_EMAIL_LENGTH = 254;

/** A work e-mail address as typed on the waiver-request page: trimmed, lower case, valid. */
export function readRequesterEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
    const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
    const message = `"${shown}" is not a valid email`;
    throw invalidArgument(message, [{ field: "email", message }]);
  }
  return email;
}

export interface RequesterTenant {
  tenantId: string;
  tenantName: string;
}

/**
 * The tenant that owns the policy key, provided the address is in one of its waiver requester
 * domains; otherwise a refusal that says whom to ask.
 */
export async function requireRequesterDomain(
  db: Database,
  rawKey: string,
  email: string,
): Promise<RequesterTenant> {
  const key = parseKey(rawKey);
  const bundle = await findLiveBundleByKeyAnyTenant(db, key);
  if (!bundle) {
    throw new ConnectError(`No policy has the key ${key}. Check the key in the deny message.`, Code.NotFound);
  }
  const tenant = await requireTenant(db, bundle.tenantId);
  const settings = await findTenantSettings(db, bundle.tenantId);
  if (!inRequesterDomains(email, settings.waiverRequesterDomains)) {
    const domain = email.slice(email.lastIndexOf("@") + 1);
    throw new ConnectError(
      `Addresses at ${domain} cannot request waivers in ${tenant.name} on their own. Ask an administrator of ${tenant.name} to invite you, or sign in if you already have an account there.`,
      Code.PermissionDenied,
    );
  }
  return { tenantId: tenant.id, tenantName: tenant.name };
}
