import { createHash } from "node:crypto";
import {
  AWS_POLICY_TYPE_OF_ENFORCER,
  type Definition,
  type PackedPolicyType,
} from "@palisade/policy-engine/catalogue/definition-schema";
import {
  type CompiledDeclarative,
  compileDeclarative,
} from "@palisade/policy-engine/compilers/aws/compile-declarative";
import { compileRcp } from "@palisade/policy-engine/compilers/aws/compile-rcp";
import { type CompiledScp, compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import {
  type CompiledAzureBundle,
  compileAzureBundle,
} from "@palisade/policy-engine/compilers/azure/compile-azure";
import {
  type ActiveWaiver,
  type CompileBundleInput,
  CompileError,
} from "@palisade/policy-engine/compilers/compile-input";
import type { WaiverRow } from "../waiver/waiver-api";
import type { BundleRow, StoredScope } from "./bundle-repository";
import { type WaiverErrorCode, waiverFailure } from "./cloud-failure";
import type { DeploymentRow } from "./deployment-repository";

/**
 * A compiled bundle. On AWS, `scp` is the guardrail's Organizations policy: a service control
 * policy or, for aws_rcp definitions, a resource control policy (`policyType`).
 */
export type Compiled =
  | { provider: "aws"; scp: CompiledScp; policyType: PackedPolicyType }
  /** A declarative policy for EC2: one policy per bundle, attached around waived accounts. */
  | { provider: "aws_declarative"; declarative: CompiledDeclarative }
  | { provider: "azure"; azure: CompiledAzureBundle };

/** The Organizations policy type an AWS definition deploys as; undefined for other enforcers. */
export function awsPolicyTypeOf(definition: Definition): PackedPolicyType | undefined {
  if (definition.enforcer === "aws_scp" || definition.enforcer === "aws_rcp")
    return AWS_POLICY_TYPE_OF_ENFORCER[definition.enforcer];
  return undefined;
}

export type BaseInput = Omit<CompileBundleInput, "waivers">;

export const documentHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

export function toActiveWaiver(
  waiver: Pick<WaiverRow, "id" | "policyKey" | "expiresAt" | "principalArn" | "resource" | "scope">,
  deployment: DeploymentRow | undefined,
): ActiveWaiver {
  const named = waiver.principalArn ?? waiver.resource ?? waiver.scope;
  return {
    id: waiver.id,
    key: waiver.policyKey,
    expiresAt: waiver.expiresAt ?? new Date(0),
    principalArn: waiver.principalArn ?? undefined,
    resource: waiver.resource ?? undefined,
    // A waiver naming nothing exempts its deployment's whole scope.
    scope: waiver.scope ?? (named ? undefined : deployment?.scopeExternalId),
    // A waiver is accepted only below its deployment's scope in the synced hierarchy.
    withinScope: deployment?.scopeExternalId,
  };
}

export function compile(input: CompileBundleInput): Compiled {
  const { enforcer } = input.definition;
  if (enforcer === "aws_scp")
    return { provider: "aws", scp: compileScp(input), policyType: "SERVICE_CONTROL_POLICY" };
  if (enforcer === "aws_rcp")
    return { provider: "aws", scp: compileRcp(input), policyType: "RESOURCE_CONTROL_POLICY" };
  if (enforcer === "aws_declarative_ec2")
    return { provider: "aws_declarative", declarative: compileDeclarative(input) };
  return { provider: "azure", azure: compileAzureBundle(input) };
}

/** What the compilers need of a bundle, for the given scopes, before waivers. */
export function baseInput(
  bundle: BundleRow,
  definition: Definition,
  all: Map<string, Definition>,
  scopes: StoredScope[],
  waiverLinkBaseUrl: string,
): BaseInput {
  return {
    definition,
    definitions: all,
    parameters: bundle.parameters as Record<string, unknown>,
    mode: bundle.mode as "PREVENT" | "ALERT",
    key: bundle.key,
    name: bundle.name,
    scopes: scopes.map((scope) => ({ id: scope.externalId, displayName: scope.name })),
    excludedScopes: (bundle.excludedScopes as StoredScope[]).map((scope) => ({
      id: scope.externalId,
      displayName: scope.name,
    })),
    waiverLinkBaseUrl,
    now: new Date(),
  };
}

/**
 * Compiles the bundle with as many enforceable waivers as fit: each waiver is added on its own,
 * so one that cannot be expressed (bad scope, document over the size limit) fails alone.
 */
export function compileWithWaivers(
  input: BaseInput,
  enforceable: ActiveWaiver[],
): { compiled: Compiled; accepted: ActiveWaiver[]; rejected: Map<string, WaiverErrorCode> } {
  let compiled = compile({ ...input, waivers: [] });
  const accepted: ActiveWaiver[] = [];
  const rejected = new Map<string, WaiverErrorCode>();
  for (const waiver of [...enforceable].sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())) {
    try {
      compiled = compile({ ...input, waivers: [...accepted, waiver] });
      accepted.push(waiver);
    } catch (error) {
      if (!(error instanceof CompileError)) throw error;
      rejected.set(waiver.id, waiverFailure(error));
    }
  }
  return { compiled, accepted, rejected };
}

/** Ids of the Azure exemptions a waiver would have: the compiler names them deterministically. */
export function exemptionIds(input: BaseInput, waiver: ActiveWaiver): string[] {
  try {
    const future = new Date(input.now.getTime() + 3_600_000);
    const compiled = compileAzureBundle({ ...input, waivers: [{ ...waiver, expiresAt: future }] });
    return compiled.exemptions.map((exemption) => exemption.id);
  } catch {
    return [];
  }
}
