import { Code } from "@connectrpc/connect";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { compileDeclarative } from "@palisade/policy-engine/compilers/aws/compile-declarative";
import { compileRcp } from "@palisade/policy-engine/compilers/aws/compile-rcp";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import { compileAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import { CompileError } from "@palisade/policy-engine/compilers/compile-input";
import type { Database } from "../../db/database";
import { callError, invalidField } from "../../rpc/errors";
import { policyQuotasFor } from "../connector/connector-api";
import type { StoredScope } from "./bundle-repository";
import { compileFailure } from "./cloud-failure";
import { errorCodeOfName } from "./deployment-message";
import type { TenantReads } from "./tenant-reads";

/** The tenant's definition of a slug, as the bundle's policy_slug names it. */
export async function definitionFor(tenant: TenantReads, slug: string): Promise<Definition> {
  const view = await tenant.catalogue();
  const entry = view.bySlug.get(slug.trim());
  if (!entry) throw invalidField("policy_slug", `no policy definition "${slug}" in this tenant's catalogue.`);
  return entry.definition;
}

/** A bundle as it is about to be stored. */
export interface BundleDraft {
  id?: string;
  key?: string;
  parameters: unknown;
  mode: string;
  name: string;
  scopes: StoredScope[];
  excluded: StoredScope[];
}

/**
 * Compiles the bundle as it would be deployed (without waivers) so that what can never deploy
 * (an SCP over the size limit, Azure scopes without a common home) is refused before it is stored.
 */
export async function checkCompiles(
  deps: { db: Database; publicUrl: string },
  tenant: TenantReads,
  definition: Definition,
  bundle: BundleDraft,
): Promise<void> {
  const view = await tenant.catalogue();
  const input = {
    definition,
    definitions: new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition])),
    parameters: bundle.parameters as Record<string, unknown>,
    mode: bundle.mode as "PREVENT" | "ALERT",
    // Keys have a fixed length, so a stand-in gives the real document size.
    key: "0000000",
    name: bundle.name,
    scopes: bundle.scopes.map((scope) => ({ id: scope.externalId })),
    excludedScopes: bundle.excluded.map((scope) => ({ id: scope.externalId })),
    waivers: [],
    waiverLinkBaseUrl: deps.publicUrl,
    now: new Date(),
    // The connector's own quota: an organisation whose quota AWS raised deploys longer SCPs.
    scpMaxCharacters: (
      await policyQuotasFor(
        deps.db,
        tenant.tenantId,
        bundle.scopes[0]?.connectorId ?? null,
        "SERVICE_CONTROL_POLICY",
      )
    ).characters,
  };
  try {
    // On AWS, whether the guardrail fits next to the others on each target is decided when the
    // target's SCPs are packed; the deployment fails there with POLICY_LIMIT_EXCEEDED if not.
    if (definition.enforcer === "aws_scp") compileScp(input);
    else if (definition.enforcer === "aws_declarative_ec2") compileDeclarative(input);
    else if (definition.enforcer === "aws_rcp") compileRcp(input);
    else compileAzureBundle(input);
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    const failure = compileFailure(error);
    throw callError(Code.InvalidArgument, failure.message, { product: errorCodeOfName(failure.code) });
  }
}
