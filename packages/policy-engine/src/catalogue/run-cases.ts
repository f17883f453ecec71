import { compileDeclarative } from "../compilers/aws/compile-declarative";
import { compileRcp } from "../compilers/aws/compile-rcp";
import { compileScp } from "../compilers/aws/compile-scp";
import { type CompiledAzureBundle, compileAzureBundle } from "../compilers/azure/compile-azure";
import { type CompileBundleInput, CompileError, type DeploymentMode } from "../compilers/compile-input";
import type { AzureAssignment } from "../evaluators/azure/evaluate-assignments";
import { evaluateAzureRequest } from "../evaluators/azure/evaluate-assignments";
import { exceptionMessage, mergeDeclarative } from "../evaluators/declarative/declarative-merge";
import { declarativeViolations } from "../evaluators/declarative/declarative-request";
import { evaluateOrganizationPolicies, rcpsApply } from "../evaluators/scp/evaluate-rcp";
import { evaluateScpHierarchy, type ScpPolicy } from "../evaluators/scp/evaluate-scp";
import type {
  AwsCase,
  AwsDeclarativeCase,
  AwsDeclarativeDefinition,
  AwsDefinition,
  AwsRcpDefinition,
  AzureCase,
  AzureDefinition,
  Definition,
} from "./definition-schema";
import type { Catalogue } from "./parse-catalogue";

export interface CaseOutcome {
  slug: string;
  caseName: string;
  mode: DeploymentMode;
  expect: "deny" | "allow";
  passed: boolean;
  /** What happened, in the words a reviewer would use. */
  actual: string;
}

/** A valid key (the alphabet has no I, L, O, U) that is obviously not a real deployment's. */
export const CASE_KEY = "CASE000";
const NOW = new Date("2026-01-15T12:00:00Z");

/** The AWS-managed policy every level of an organization starts with. */
export const FULL_AWS_ACCESS: ScpPolicy = {
  id: "p-FullAWSAccess",
  arn: "arn:aws:organizations::aws:policy/service_control_policy/p-FullAWSAccess",
  name: "FullAWSAccess",
  document: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }] },
};

/** The AWS-managed resource control policy every level starts with once RCPs are enabled. */
export const RCP_FULL_AWS_ACCESS: ScpPolicy = {
  id: "p-RCPFullAWSAccess",
  arn: "arn:aws:organizations::aws:policy/resource_control_policy/p-RCPFullAWSAccess",
  name: "RCPFullAWSAccess",
  document: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: "*", Action: "*", Resource: "*" }],
  },
};

/** The account whose resources RCP cases touch unless a case names another. */
const CASE_RESOURCE_ACCOUNT = "111122223333";
const CASE_MANAGEMENT_ACCOUNT = "999988887777";
/** The organisation of the case resources' accounts. */
export const CASE_ORGANIZATION_ID = "o-a1b2c3d4e5";

/** The shape the Azure evaluator takes, from the ARM resources the compiler produces. */
export function toEvaluatorAssignments(bundle: CompiledAzureBundle): AzureAssignment[] {
  return bundle.assignments.map((assignment) => ({
    id: assignment.id,
    scope: assignment.properties.scope,
    notScopes: assignment.properties.notScopes,
    policyDefinition: {
      id: bundle.definition.id,
      policyRule: bundle.definition.properties.policyRule,
      parameters: bundle.definition.properties.parameters,
    },
    parameters: assignment.properties.parameters,
    nonComplianceMessages: assignment.properties.nonComplianceMessages,
  }));
}

function baseInput(
  definition: Definition,
  catalogue: Catalogue,
  mode: DeploymentMode,
  scope: string,
  parameters: Record<string, unknown>,
): CompileBundleInput {
  return {
    definition,
    parameters,
    mode,
    key: CASE_KEY,
    name: `${definition.display_name} (cases)`,
    scopes: [{ id: scope }],
    excludedScopes: [],
    waivers: [],
    waiverLinkBaseUrl: "https://palisade.invalid",
    now: NOW,
    definitions: catalogue.bySlug,
  };
}

/** A definition that does not compile fails each of its cases instead of stopping the whole run. */
function guarded(
  definition: Definition,
  testCase: { name: string; expect: "deny" | "allow" },
  mode: DeploymentMode,
  run: () => CaseOutcome,
): CaseOutcome {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    return {
      slug: definition.slug,
      caseName: testCase.name,
      mode,
      expect: testCase.expect,
      passed: false,
      actual: `does not compile: ${error.message}`,
    };
  }
}

function modesOf(mode: "prevent" | "alert" | "both"): DeploymentMode[] {
  return mode === "both" ? ["PREVENT", "ALERT"] : mode === "prevent" ? ["PREVENT"] : ["ALERT"];
}

/** The request an AWS case describes; a service principal's call carries no principal ARN. */
function requestOf(testCase: AwsCase) {
  const principal = testCase.request.principal_arn;
  const service = !principal.startsWith("arn:");
  return {
    action: testCase.request.action,
    resource: testCase.request.resource,
    principalArn: service ? "" : principal,
    context: service
      ? { "aws:PrincipalServiceName": principal, ...testCase.request.context }
      : testCase.request.context,
  };
}

function runAwsCase(
  definition: AwsDefinition | AwsRcpDefinition,
  testCase: AwsCase,
  mode: DeploymentMode,
  catalogue: Catalogue,
): CaseOutcome {
  const rcp = definition.enforcer === "aws_rcp";
  const input = baseInput(definition, catalogue, mode, "r-case", testCase.parameters ?? {});
  const compiled = rcp ? compileRcp(input) : compileScp(input);
  const type = rcp ? "resource_control_policy" : "service_control_policy";
  const policy: ScpPolicy = {
    id: "p-case0000",
    arn: `arn:aws:organizations::111111111111:policy/o-case000000/${type}/p-case0000`,
    name: compiled.name,
    document: compiled.content,
  };
  const request = requestOf(testCase);
  const resourceAccountId = testCase.request.resource_account ?? CASE_RESOURCE_ACCOUNT;
  // The resource's own keys (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-resourceorgid).
  if (rcp)
    request.context = {
      "aws:ResourceAccount": resourceAccountId,
      "aws:ResourceOrgID": CASE_ORGANIZATION_ID,
      ...request.context,
    };
  const evaluate = (attached: boolean) => {
    if (!rcp)
      return evaluateScpHierarchy(request, [attached ? [FULL_AWS_ACCESS, policy] : [FULL_AWS_ACCESS]]);
    // RCPs apply to the resource's account whoever the caller is, for the services RCPs govern.
    const applies = rcpsApply({
      resourceAccountId,
      managementAccountId: CASE_MANAGEMENT_ACCOUNT,
      memberAccountIds: [resourceAccountId],
      principalArn: request.principalArn,
      action: request.action,
    });
    const rcpLevels = applies ? [attached ? [RCP_FULL_AWS_ACCESS, policy] : [RCP_FULL_AWS_ACCESS]] : [];
    return evaluateOrganizationPolicies(request, [[FULL_AWS_ACCESS]], rcpLevels);
  };
  const enforced = evaluate(compiled.attach);
  const wouldDeny = evaluate(true).decision === "explicit_deny";
  const denied = enforced.decision !== "allow";
  const deniedByKey = enforced.decision === "explicit_deny" && (enforced.sid ?? "").includes(CASE_KEY);
  let passed: boolean;
  if (testCase.expect === "allow") passed = !denied && !wouldDeny;
  else if (mode === "PREVENT") passed = deniedByKey;
  else passed = !denied && wouldDeny;
  const actual = denied
    ? `${enforced.decision}${enforced.sid ? ` by ${enforced.sid}` : ""}`
    : wouldDeny
      ? "allowed, reported as would-deny"
      : "allowed";
  return { slug: definition.slug, caseName: testCase.name, mode, expect: testCase.expect, passed, actual };
}

/**
 * A declarative case: the compiled policy attached to the root (or not, in ALERT mode) and the
 * request evaluated with the merge and the refusal rules the sandbox's EC2 enforces with. A
 * refusal counts as the guardrail's when EC2's message would carry the policy key.
 */
function runDeclarativeCase(
  definition: AwsDeclarativeDefinition,
  testCase: AwsDeclarativeCase,
  mode: DeploymentMode,
  catalogue: Catalogue,
): CaseOutcome {
  const compiled = compileDeclarative(
    baseInput(definition, catalogue, mode, "r-case", testCase.parameters ?? {}),
  );
  const document = JSON.parse(compiled.content);
  const request = { action: testCase.request.action, parameters: testCase.request.parameters };
  const attached = mergeDeclarative([compiled.attach ? [document] : []]);
  const violations = declarativeViolations(attached, request);
  const wouldDeny = declarativeViolations(mergeDeclarative([[document]]), request).length > 0;
  const denied = violations.length > 0;
  const deniedByKey = denied && exceptionMessage(attached).includes(CASE_KEY);
  let passed: boolean;
  if (testCase.expect === "allow") passed = !denied && !wouldDeny;
  else if (mode === "PREVENT") passed = deniedByKey;
  else passed = !denied && wouldDeny;
  const actual = denied
    ? `refused: ${violations.join("; ")}`
    : wouldDeny
      ? "allowed, would be refused if attached"
      : "allowed";
  return { slug: definition.slug, caseName: testCase.name, mode, expect: testCase.expect, passed, actual };
}

function runAzureCase(
  definition: AzureDefinition,
  testCase: AzureCase,
  mode: DeploymentMode,
  catalogue: Catalogue,
): CaseOutcome {
  const resource = testCase.request.resource;
  const subscription = /^\/subscriptions\/[^/]+/i.exec(resource.id)![0];
  const bundle = compileAzureBundle(
    baseInput(definition, catalogue, mode, subscription, testCase.parameters ?? {}),
  );
  const decision = evaluateAzureRequest(resource, toEvaluatorAssignments(bundle), [], NOW, catalogue.aliases);
  const audited = decision.audits.length > 0;
  let passed: boolean;
  if (testCase.expect === "allow") passed = decision.decision === "allow" && !audited;
  else if (mode === "PREVENT")
    passed = decision.decision === "deny" && (decision.message ?? "").includes(CASE_KEY);
  else passed = decision.decision === "allow" && audited;
  const actual =
    decision.decision === "deny"
      ? `denied: ${decision.message ?? ""}`
      : audited
        ? "allowed, audited"
        : "allowed";
  return { slug: definition.slug, caseName: testCase.name, mode, expect: testCase.expect, passed, actual };
}

/**
 * Runs a definition's cases the way a deployment would behave: compile the bundle with the
 * parameter defaults (plus the case's overrides) in each mode, then evaluate the request with the
 * same evaluators the sandbox cloud enforces with.
 */
export function runDefinitionCases(definition: Definition, catalogue: Catalogue): CaseOutcome[] {
  const outcomes: CaseOutcome[] = [];
  if (definition.enforcer === "aws_scp" || definition.enforcer === "aws_rcp") {
    for (const testCase of definition.cases) {
      for (const mode of modesOf(testCase.mode)) {
        outcomes.push(
          guarded(definition, testCase, mode, () => runAwsCase(definition, testCase, mode, catalogue)),
        );
      }
    }
  } else if (definition.enforcer === "aws_declarative_ec2") {
    for (const testCase of definition.cases) {
      for (const mode of modesOf(testCase.mode)) {
        outcomes.push(
          guarded(definition, testCase, mode, () =>
            runDeclarativeCase(definition, testCase, mode, catalogue),
          ),
        );
      }
    }
  } else if (definition.enforcer === "azure_policy") {
    for (const testCase of definition.cases) {
      for (const mode of modesOf(testCase.mode)) {
        outcomes.push(
          guarded(definition, testCase, mode, () => runAzureCase(definition, testCase, mode, catalogue)),
        );
      }
    }
  }
  return outcomes;
}

export function runCatalogueCases(catalogue: Catalogue): CaseOutcome[] {
  return catalogue.definitions.flatMap((definition) => runDefinitionCases(definition, catalogue));
}
