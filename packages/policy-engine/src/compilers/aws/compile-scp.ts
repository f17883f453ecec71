import type { AwsDefinition } from "../../catalogue/definition-schema";
import { type CompileBundleInput, CompileError, PolicyLimitExceededError } from "../compile-input";
import { compileGuardrailStatements, truncate } from "./guardrail-statements";
import { DEFAULT_SCP_LIMITS } from "./pack-scps";

/**
 * AWS Organizations quotas for service control policies
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-values):
 * 10,240 characters since 15 May 2026; a connector that states another quota passes its own.
 */
export const SCP_MAX_CHARACTERS = DEFAULT_SCP_LIMITS.characters;
export const SCP_MAX_NAME = 128;
export const SCP_MAX_DESCRIPTION = 512;

export interface CompiledScp {
  name: string;
  description: string;
  /** Minified policy document, as sent to CreatePolicy/UpdatePolicy. */
  content: string;
  /** Roots, OUs and accounts to attach the policy to. */
  targets: string[];
  /**
   * SCPs cannot audit, so in ALERT mode the policy is not attached: the audit stream is evaluated
   * against `content` instead and would-be denials are recorded.
   */
  attach: boolean;
}

/**
 * Compiles a bundle of an aws_scp definition into one service control policy. Waivers become
 * time windows: between consecutive waiver expiries the deny statements exempt exactly the
 * waivers still in force (`DateGreaterThanEquals`/`DateLessThan` on `aws:CurrentTime`), so AWS
 * itself stops honouring a waiver when it expires, even if Palisade is not running.
 */
export function compileScp(input: CompileBundleInput): CompiledScp {
  const definition = input.definition;
  if (definition.enforcer !== "aws_scp") {
    throw new CompileError(
      "INVALID_TREE",
      `${definition.slug} is enforced by ${definition.enforcer}, not aws_scp`,
    );
  }
  const aws = definition as AwsDefinition;
  const { statements, targets, activeWaiverCount } = compileGuardrailStatements(input, aws);

  const content = JSON.stringify({ Version: "2012-10-17", Statement: statements });
  const limit = input.scpMaxCharacters ?? SCP_MAX_CHARACTERS;
  if (content.length > limit) {
    const over = content.length - limit;
    throw new PolicyLimitExceededError(
      `The service control policy for ${input.key} (${aws.slug}) is ${content.length} characters, ${over} over the ` +
        `${limit}-character limit of AWS Organizations. Shorten list parameters or reduce the ` +
        `${activeWaiverCount} active waivers (each distinct expiry time repeats every statement).`,
      limit,
      content.length,
    );
  }
  return {
    name: truncate(`palisade-${input.key}-${aws.slug}`, SCP_MAX_NAME),
    description: truncate(
      `Palisade ${input.key}: ${aws.display_name} (bundle "${input.name}", ${input.mode})`,
      SCP_MAX_DESCRIPTION,
    ),
    content,
    targets,
    attach: input.mode === "PREVENT",
  };
}
