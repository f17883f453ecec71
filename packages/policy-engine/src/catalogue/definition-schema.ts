import { z } from "zod";
import { IAM_CONDITION_OPERATORS } from "../evaluators/scp/condition-operators";

/** Slugs double as file names and as parts of cloud resource names, so they stay short and URL-safe. */
export const slugSchema = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lower-case kebab-case (a-z, 0-9, single hyphens)")
  .max(64);

export const enforcerSchema = z.enum(["aws_scp", "aws_rcp", "aws_declarative_ec2", "azure_policy"]);
export type Enforcer = z.infer<typeof enforcerSchema>;
export type EnforcerProvider = "aws" | "azure";

/** The cloud whose native mechanism an enforcer compiles to. */
export function providerOfEnforcer(enforcer: Enforcer): EnforcerProvider {
  return enforcer === "azure_policy" ? "azure" : "aws";
}

/**
 * The AWS Organizations policy type each AWS enforcer deploys as
 * (https://docs.aws.amazon.com/organizations/latest/APIReference/API_CreatePolicy.html, `Type`).
 */
export const AWS_POLICY_TYPE_OF_ENFORCER = {
  aws_scp: "SERVICE_CONTROL_POLICY",
  aws_rcp: "RESOURCE_CONTROL_POLICY",
  aws_declarative_ec2: "DECLARATIVE_POLICY_EC2",
} as const satisfies Record<Exclude<Enforcer, "azure_policy">, string>;
export type AwsPolicyType = (typeof AWS_POLICY_TYPE_OF_ENFORCER)[keyof typeof AWS_POLICY_TYPE_OF_ENFORCER];
/** The AWS Organizations policy types Palisade deploys, as Organizations names them. */
export const AWS_POLICY_TYPES: readonly AwsPolicyType[] = Object.values(AWS_POLICY_TYPE_OF_ENFORCER);
/** The policy types Palisade packs guardrails into; a declarative policy is one per bundle instead. */
export type PackedPolicyType = (typeof AWS_POLICY_TYPE_OF_ENFORCER)["aws_scp" | "aws_rcp"];

export const parameterTypeSchema = z.enum(["integer", "string", "array", "object", "boolean", "float"]);
export type ParameterType = z.infer<typeof parameterTypeSchema>;

export const targetTypeSchema = z.enum(["integer", "string", "boolean", "float", "port", "cidr", "ip"]);
export type TargetType = z.infer<typeof targetTypeSchema>;

export const parameterDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, "must be an identifier (letters, digits, underscore)"),
  display_name: z.string().min(1),
  description: z.string().min(1),
  type: parameterTypeSchema,
  default_value: z.unknown().optional(),
  allowed_values: z.array(z.unknown()).default([]),
  target_type: targetTypeSchema.optional(),
});
export type ParameterDefinition = z.infer<typeof parameterDefinitionSchema>;

const scoreSchema = z.enum(["low", "medium", "high", "very_high"]);
export type Score = z.infer<typeof scoreSchema>;

export const categorySchema = z.enum([
  "other",
  "network_access",
  "data_protection",
  "encryption",
  "identity",
]);
export type Category = z.infer<typeof categorySchema>;

const noticeSchema = z.strictObject({
  notice_type: z.enum(["error", "warning", "informatic", "positive"]),
  notice_content: z.string().min(1),
});

/** `name` is a framework id from catalogue/frameworks/, `section` one of its clause ids. */
const frameworkReferenceSchema = z.strictObject({
  name: z.string().min(1),
  section: z.string().min(1),
  subsection: z.string().min(1).optional(),
});
export type FrameworkReference = z.infer<typeof frameworkReferenceSchema>;

const furtherReadingSchema = z.strictObject({
  name: z.string().min(1),
  href: z.url({ protocol: /^https$/, error: "must be an https URL" }),
});

// ---------- AWS (aws_scp) ----------

const conditionOperatorPattern = new RegExp(
  `^(ForAnyValue:|ForAllValues:)?(${IAM_CONDITION_OPERATORS.join("|")})(IfExists)?$`,
);

const conditionScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
const conditionValueSchema = z.union([conditionScalarSchema, z.array(conditionScalarSchema).min(1)]);
export const iamConditionBlockSchema = z.record(
  z.string().regex(conditionOperatorPattern, "is not an IAM condition operator"),
  z.record(z.string().min(1), conditionValueSchema),
);
export type IamConditionBlock = z.infer<typeof iamConditionBlockSchema>;

const stringOrListSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const iamStatementTemplateSchema = z
  .strictObject({
    Effect: z.literal("Deny"),
    Action: stringOrListSchema.optional(),
    NotAction: stringOrListSchema.optional(),
    Resource: stringOrListSchema.optional(),
    NotResource: stringOrListSchema.optional(),
    Condition: iamConditionBlockSchema.optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.Action === undefined) === (s.NotAction === undefined)) {
      ctx.addIssue({ code: "custom", message: "exactly one of Action or NotAction is required" });
    }
    if (s.Resource !== undefined && s.NotResource !== undefined) {
      ctx.addIssue({ code: "custom", message: "Resource and NotResource cannot both be set" });
    }
  });
export type IamStatementTemplate = z.infer<typeof iamStatementTemplateSchema>;

export type AwsTreeNode =
  | { atomic: IamStatementTemplate }
  | { policy_reference: string }
  | { junction: { operator: "and" | "or" | "not"; nodes: AwsTreeNode[] } };

export const awsTreeNodeSchema: z.ZodType<AwsTreeNode> = z.lazy(() =>
  z.union([
    z.strictObject({ atomic: iamStatementTemplateSchema }),
    z.strictObject({ policy_reference: slugSchema }),
    z.strictObject({
      junction: z.strictObject({
        operator: z.enum(["and", "or", "not"]),
        nodes: z.array(awsTreeNodeSchema).min(1),
      }),
    }),
  ]),
);

const contextValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

const caseModeSchema = z.enum(["prevent", "alert", "both"]).default("both");
const caseBase = {
  name: z.string().min(1),
  mode: caseModeSchema,
  expect: z.enum(["deny", "allow"]),
  /** Overrides merged over the parameter defaults for this case only. */
  parameters: z.record(z.string(), z.unknown()).optional(),
};

export const awsCaseSchema = z.strictObject({
  ...caseBase,
  request: z.strictObject({
    action: z.string().regex(/^[a-z0-9-]+:[A-Za-z0-9]+$/, "must be service:Action"),
    resource: z.string().min(1).default("*"),
    /**
     * An IAM or STS principal ARN; resource control policy cases may also name an AWS service
     * principal (`cloudtrail.amazonaws.com`), whose calls carry no aws:PrincipalArn.
     */
    principal_arn: z
      .string()
      .regex(
        /^(arn:aws[a-z-]*:(iam|sts)::\d{12}:|[a-z0-9-]+(\.[a-z0-9-]+)*\.amazonaws\.com$)/,
        "must be an IAM or STS principal ARN, or an AWS service principal",
      ),
    /** Resource control policy cases: the account that owns the resource (default 111122223333). */
    resource_account: z
      .string()
      .regex(/^\d{12}$/, "must be a 12-digit account id")
      .optional(),
    context: z.record(z.string(), contextValueSchema).default({}),
  }),
});
export type AwsCase = z.infer<typeof awsCaseSchema>;

const awsProviderDataSchema = z.strictObject({
  aws_scp: z
    .strictObject({
      cloud_control: z.record(z.string(), z.string()).optional(),
      steampipe: z.array(z.string()).optional(),
    })
    .optional(),
});

// ---------- Azure (azure_policy) ----------

/**
 * Azure policy conditions are validated structurally in parse-catalogue (one operand, one operator,
 * `count.where` recursion) so the messages can point at the exact key; here they are plain objects.
 */
export const azureConditionSchema = z.record(z.string(), z.unknown());
export type AzureCondition = Record<string, unknown>;

export type AzureTreeNode =
  | { atomic: AzureCondition }
  | { policy_reference: string }
  | { junction: { operator: "and" | "or" | "not"; nodes: AzureTreeNode[] } };

export const azureTreeNodeSchema: z.ZodType<AzureTreeNode> = z.lazy(() =>
  z.union([
    z.strictObject({ atomic: azureConditionSchema }),
    z.strictObject({ policy_reference: slugSchema }),
    z.strictObject({
      junction: z.strictObject({
        operator: z.enum(["and", "or", "not"]),
        nodes: z.array(azureTreeNodeSchema).min(1),
      }),
    }),
  ]),
);

export const azureResourceSchema = z.strictObject({
  id: z.string().regex(/^\/subscriptions\/[^/]+(\/.+)?$/, "must be an ARM resource id under /subscriptions/"),
  type: z
    .string()
    .regex(
      /^[A-Za-z]+\.[A-Za-z.]+\/[A-Za-z/]+$/,
      "must be a resource type like Microsoft.Storage/storageAccounts",
    ),
  name: z.string().min(1),
  location: z.string().optional(),
  kind: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  sku: z.record(z.string(), z.unknown()).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});

export const azureCaseSchema = z.strictObject({
  ...caseBase,
  request: z.strictObject({ resource: azureResourceSchema }),
});
export type AzureCase = z.infer<typeof azureCaseSchema>;

const azureProviderDataSchema = z.strictObject({
  azure_policy: z
    .strictObject({
      /** Indexed skips resource types without tags/location support; All covers everything. */
      mode: z.enum(["All", "Indexed"]),
    })
    .optional(),
});

// ---------- Definition ----------

const commonFields = {
  slug: slugSchema,
  display_name: z.string().min(1).max(120),
  description: z.string().min(1),
  feedback_message_template: z.string().min(1),
  parameter_definitions: z.array(parameterDefinitionSchema).default([]),
  affected_resource_types: z.array(z.string().min(1)).min(1),
  main_resource_type: z.string().min(1),
  warnings: z.array(z.string().min(1)).default([]),
  notices: z.array(noticeSchema).default([]),
  frameworks: z.array(frameworkReferenceSchema).default([]),
  further_reading_urls: z.array(furtherReadingSchema).min(1),
  is_visible: z.boolean(),
  is_preventable: z.boolean(),
  category: categorySchema,
  security_score: scoreSchema,
  seamless_score: scoreSchema,
  initiative_slugs: z.array(z.string().min(1)).default([]),
};

export const awsDefinitionSchema = z.strictObject({
  ...commonFields,
  enforcer: z.literal("aws_scp"),
  tree: awsTreeNodeSchema,
  provider_data: awsProviderDataSchema.default({}),
  cases: z.array(awsCaseSchema).min(2),
});

/**
 * A resource control policy: the same statement trees as an SCP, compiled with `Principal: "*"`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html).
 */
export const awsRcpDefinitionSchema = awsDefinitionSchema.extend({ enforcer: z.literal("aws_rcp") });

/**
 * A request a declarative policy for EC2 governs: the EC2 API action and the Query parameters the
 * policy looks at (see evaluators/declarative/declarative-request.ts), e.g.
 * `ec2:RunInstances` with `MetadataOptions.HttpTokens: optional`.
 */
export const awsDeclarativeCaseSchema = z.strictObject({
  ...caseBase,
  request: z.strictObject({
    action: z.string().regex(/^[a-z0-9-]+:[A-Za-z0-9]+$/, "must be service:Action"),
    parameters: z.record(z.string(), z.string()).default({}),
  }),
});
export type AwsDeclarativeCase = z.infer<typeof awsDeclarativeCaseSchema>;

/**
 * A declarative policy for EC2: `ec2_attributes` is the documented policy content below its fixed
 * top-level key, with `{{parameter}}` placeholders in values
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).
 * The compiler adds `exception_message` (it carries the policy key and the waiver address), so the
 * template must not set it. Declarative policies have no statements to combine: no tree.
 */
export const awsDeclarativeDefinitionSchema = z.strictObject({
  ...commonFields,
  enforcer: z.literal("aws_declarative_ec2"),
  ec2_attributes: z
    .record(z.string(), z.unknown())
    .refine((attributes) => !("exception_message" in attributes), {
      message: "exception_message is set by the compiler from feedback_message_template",
    }),
  provider_data: z.strictObject({}).default({}),
  cases: z.array(awsDeclarativeCaseSchema).min(2),
});

export const azureDefinitionSchema = z.strictObject({
  ...commonFields,
  enforcer: z.literal("azure_policy"),
  tree: azureTreeNodeSchema,
  provider_data: azureProviderDataSchema.default({}),
  cases: z.array(azureCaseSchema).min(2),
});

export const definitionSchema = z.discriminatedUnion("enforcer", [
  awsDefinitionSchema,
  awsRcpDefinitionSchema,
  awsDeclarativeDefinitionSchema,
  azureDefinitionSchema,
]);

export type AwsDefinition = z.infer<typeof awsDefinitionSchema>;
export type AwsRcpDefinition = z.infer<typeof awsRcpDefinitionSchema>;
export type AwsDeclarativeDefinition = z.infer<typeof awsDeclarativeDefinitionSchema>;
export type AzureDefinition = z.infer<typeof azureDefinitionSchema>;
/** Definitions whose policy is a tree of statements or conditions (every enforcer but declarative). */
export type TreeDefinition = Exclude<Definition, AwsDeclarativeDefinition>;
export type Definition = z.infer<typeof definitionSchema>;
export type TreeNode = AwsTreeNode | AzureTreeNode;
