import type { AwsRcpDefinition } from "../../catalogue/definition-schema";
import { RCP_SERVICES, validateScpDocument } from "../../evaluators/scp/validate-scp-document";
import { type CompileBundleInput, CompileError, PolicyLimitExceededError } from "../compile-input";
import type { CompiledScp } from "./compile-scp";
import { compileGuardrailStatements, truncate } from "./guardrail-statements";
import { DEFAULT_RCP_LIMITS } from "./pack-scps";
import type { Statement } from "./scp-statement";

/**
 * AWS Organizations quotas for resource control policies
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html#min-max-values):
 * 5,120 characters per document, names and descriptions as for SCPs.
 */
export const RCP_MAX_CHARACTERS = DEFAULT_RCP_LIMITS.characters;
const RCP_MAX_NAME = 128;
const RCP_MAX_DESCRIPTION = 512;

/** A compiled resource control policy: the same shape as a compiled SCP, deployed as RESOURCE_CONTROL_POLICY. */
export type CompiledRcp = CompiledScp;

/**
 * Every action a resource control policy names must belong to a service RCPs govern
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html#rcp-supported-services);
 * the list is the one the sandbox enforces. RCPs have no NotAction, and a guardrail naming `*`
 * would silently cover whatever services AWS adds later, so both are refused here.
 */
function checkServiceCoverage(definition: AwsRcpDefinition, statements: Statement[]): void {
  for (const statement of statements) {
    if (statement.actionKey === "NotAction") {
      throw new CompileError(
        "INVALID_TREE",
        `${definition.slug}: resource control policies do not support NotAction; list the actions to deny`,
      );
    }
    const unsupported = statement.actions.filter(
      (action) => !RCP_SERVICES.has(action.split(":")[0]?.toLowerCase() ?? "") || !action.includes(":"),
    );
    if (unsupported.length > 0) {
      throw new CompileError(
        "INVALID_TREE",
        `${definition.slug}: resource control policies cover only ${[...RCP_SERVICES].sort().join(", ")}; ` +
          `${unsupported.join(", ")} ${unsupported.length === 1 ? "is" : "are"} not among them`,
      );
    }
  }
}

/**
 * Compiles a bundle of an aws_rcp definition into one resource control policy: the same Deny
 * statements, Sids and waiver windows as an SCP (conditions on aws:PrincipalArn, aws:PrincipalAccount,
 * resource ARNs, bounded by aws:CurrentTime), each with `Principal: "*"`, checked with the validator
 * the sandbox applies to CreatePolicy. An RCP cannot audit either, so ALERT bundles are not attached.
 */
export function compileRcp(input: CompileBundleInput): CompiledRcp {
  const definition = input.definition;
  if (definition.enforcer !== "aws_rcp") {
    throw new CompileError(
      "INVALID_TREE",
      `${definition.slug} is enforced by ${definition.enforcer}, not aws_rcp`,
    );
  }
  const { base, statements, targets, activeWaiverCount } = compileGuardrailStatements(input, definition);
  checkServiceCoverage(definition, base);
  const content = JSON.stringify({ Version: "2012-10-17", Statement: statements });
  if (statements.length > 0) {
    const validation = validateScpDocument(content, "rcp");
    if (!validation.valid) {
      throw new CompileError(
        "INVALID_TREE",
        `${definition.slug} does not compile to a valid resource control policy: ` +
          validation.errors.map((e) => `${e.path}: ${e.message}`).join("; "),
      );
    }
  }
  const limit = input.rcpMaxCharacters ?? RCP_MAX_CHARACTERS;
  if (content.length > limit) {
    throw new PolicyLimitExceededError(
      `The resource control policy for ${input.key} (${definition.slug}) is ${content.length} characters, ` +
        `${content.length - limit} over the ${limit}-character limit of AWS Organizations. Shorten list ` +
        `parameters or reduce the ${activeWaiverCount} active waivers (each distinct expiry time repeats every statement).`,
      limit,
      content.length,
    );
  }
  return {
    name: truncate(`palisade-${input.key}-${definition.slug}`, RCP_MAX_NAME),
    description: truncate(
      `Palisade ${input.key}: ${definition.display_name} (bundle "${input.name}", ${input.mode})`,
      RCP_MAX_DESCRIPTION,
    ),
    content,
    targets,
    attach: input.mode === "PREVENT",
  };
}
