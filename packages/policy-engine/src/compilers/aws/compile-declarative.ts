import type { AwsDeclarativeDefinition } from "../../catalogue/definition-schema";
import {
  EXCEPTION_MESSAGE_MAX,
  validateDeclarativeContent,
} from "../../evaluators/declarative/declarative-syntax";
import {
  activeWaivers,
  type CompileBundleInput,
  CompileError,
  PolicyLimitExceededError,
  renderFeedbackMessage,
  waiverLink,
} from "../compile-input";
import { resolveBundleParameters, substituteAwsPlaceholders } from "../tree";
import { declarativeTargets } from "./declarative-targets";

/**
 * AWS Organizations quotas for declarative policies
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html):
 * 10,000 characters per document and 10 declarative policies attached per root, OU or account.
 * An organisation with other quotas passes its own.
 */
export const DEFAULT_DECLARATIVE_LIMITS = { perTarget: 10, characters: 10_000 } as const;
const MAX_NAME = 128;
const MAX_DESCRIPTION = 512;

export interface CompiledDeclarative {
  name: string;
  description: string;
  /** Minified `{"ec2_attributes": ...}` document, as sent to CreatePolicy/UpdatePolicy. */
  content: string;
  /** Roots, OUs and accounts to attach it to: the bundle's scopes, less exclusions and waived accounts. */
  targets: string[];
  /**
   * Declarative policies have no audit mode: in ALERT mode the policy is not attached and EC2
   * enforces nothing. What it would refuse is only visible by evaluating requests against
   * `content` (the catalogue's cases do; the audit stream does not yet for this enforcer).
   */
  attach: boolean;
  /** The exception_message EC2 shows a refused caller: it carries the key and the waiver address. */
  exceptionMessage: string;
  /** Accounts exempted by waivers in force (until their expiry, when Palisade redeploys). */
  waivedAccounts: string[];
}

const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The message EC2 answers a refused caller with
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html,
 * `exception_message`): the definition's feedback message, with the `/req?k=KEY` address added
 * when the template does not show it; a short form when that would not fit.
 */
export function declarativeExceptionMessage(
  input: Pick<CompileBundleInput, "definition" | "key" | "name" | "waiverLinkBaseUrl">,
): string {
  const link = waiverLink(input.waiverLinkBaseUrl, input.key);
  let message = renderFeedbackMessage(input);
  if (!message.includes(link)) message = `${message} Request a waiver at ${link}`;
  if (message.length <= EXCEPTION_MESSAGE_MAX) return message;
  const short = `Refused by the Palisade guardrail ${input.key}. Request a waiver at ${link}`;
  if (short.length > EXCEPTION_MESSAGE_MAX)
    throw new CompileError("INVALID_PARAMETERS", "the waiver address is too long for an exception_message");
  return short;
}

/**
 * Compiles a bundle of an aws_declarative_ec2 definition into one declarative policy for EC2. A
 * declarative policy has no conditions: a waiver exempts a whole account by attaching the policy
 * around it (see declarative-targets.ts), and Palisade redeploys when the waiver expires.
 */
export function compileDeclarative(input: CompileBundleInput): CompiledDeclarative {
  const definition = input.definition;
  if (definition.enforcer !== "aws_declarative_ec2") {
    throw new CompileError(
      "INVALID_TREE",
      `${definition.slug} is enforced by ${definition.enforcer}, not aws_declarative_ec2`,
    );
  }
  const declarative = definition as AwsDeclarativeDefinition;
  const values = resolveBundleParameters(declarative, input.parameters);
  const attributes = substituteAwsPlaceholders(
    declarative.ec2_attributes,
    values,
    declarative.parameter_definitions,
  );
  const exceptionMessage = declarativeExceptionMessage(input);
  const content = JSON.stringify({
    ec2_attributes: { exception_message: { "@@assign": exceptionMessage }, ...attributes },
  });
  const limit = input.declarativeMaxCharacters ?? DEFAULT_DECLARATIVE_LIMITS.characters;
  if (content.length > limit)
    throw new PolicyLimitExceededError(
      `The declarative policy for ${input.key} (${declarative.slug}) is ${content.length} characters, ` +
        `${content.length - limit} over the ${limit}-character limit of AWS Organizations.`,
      limit,
      content.length,
    );
  try {
    validateDeclarativeContent(content);
  } catch (error) {
    throw new CompileError(
      "INVALID_PARAMETERS",
      `${declarative.slug} does not compile to a valid declarative policy: ${(error as Error).message}`,
    );
  }

  const waivers = activeWaivers(input.waivers, input.now);
  const waivedAccounts = waivers.map((waiver) => {
    const account = waiver.accountId ?? (/^\d{12}$/.test(waiver.scope ?? "") ? waiver.scope : undefined);
    if (!account || waiver.principalArn || waiver.resource)
      throw new CompileError(
        "PARSE_WAIVER_SCOPE_FAILED",
        `waiver ${waiver.id}: a declarative policy has no conditions, so its waivers exempt whole accounts only`,
      );
    return account;
  });
  const excluded = new Set(input.excludedScopes.map((scope) => scope.id));
  const targets = declarativeTargets(
    input.scopes.map((scope) => scope.id).filter((id) => !excluded.has(id)),
    [...excluded, ...waivedAccounts],
    input.parentOf ?? {},
  );
  return {
    name: truncate(`palisade-${input.key}-${declarative.slug}`, MAX_NAME),
    description: truncate(
      `Palisade ${input.key}: ${declarative.display_name} (bundle "${input.name}", ${input.mode})`,
      MAX_DESCRIPTION,
    ),
    content,
    targets,
    attach: input.mode === "PREVENT",
    exceptionMessage,
    waivedAccounts: [...new Set(waivedAccounts)].sort(),
  };
}
