import type { Definition } from "../catalogue/definition-schema";

/**
 * A deployment target. AWS: a root (`r-...`), organizational unit (`ou-...`) or account id
 * (12 digits). Azure: an ARM scope (`/providers/Microsoft.Management/managementGroups/<id>`,
 * `/subscriptions/<id>`, `/subscriptions/<id>/resourceGroups/<name>`).
 */
export interface Scope {
  id: string;
  displayName?: string;
}

/**
 * An approved, unexpired waiver of one bundle. It names exactly one thing it exempts: a principal
 * (AWS), an account (AWS), a resource (ARN or ARM id) or a scope (AWS OU/account, Azure ARM scope).
 */
export interface ActiveWaiver {
  id: string;
  key: string;
  expiresAt: Date;
  principalArn?: string;
  accountId?: string;
  resource?: string;
  scope?: string;
  /**
   * A scope the synced hierarchy places the resource or scope at or below (its deployment's
   * scope): a subscription's management groups do not show in its id.
   */
  withinScope?: string;
}

export type DeploymentMode = "PREVENT" | "ALERT";

export interface CompileBundleInput {
  definition: Definition;
  parameters: Record<string, unknown>;
  mode: DeploymentMode;
  key: string;
  /** The bundle's name as users gave it; shown as `{{policy_name}}` in feedback messages. */
  name: string;
  scopes: Scope[];
  excludedScopes: Scope[];
  waivers: ActiveWaiver[];
  /** Public address of Palisade; waiver links are `<waiverLinkBaseUrl>/req?k=<KEY>`. */
  waiverLinkBaseUrl: string;
  now: Date;
  /** Definitions that `policy_reference` nodes may name (normally the catalogue's bySlug). */
  definitions?: ReadonlyMap<string, Definition>;
  /**
   * Azure only: where the policy definition is created. Defaults to the subscription (or single
   * management group) shared by all scopes; required when scopes span several.
   */
  azureDefinitionScope?: string;
  /** AWS only: the characters an SCP may have in the target organisation (default 10,240). */
  scpMaxCharacters?: number;
  /** AWS declarative policies only: the characters a declarative policy may have (default 10,000). */
  declarativeMaxCharacters?: number;
  /**
   * AWS declarative policies only: the parent of each OU and account (the synced hierarchy), so a
   * waived account can be left out of the policy's targets.
   */
  parentOf?: Readonly<Record<string, string>>;
  /** AWS only: the characters an RCP may have in the target organisation (default 5,120). */
  rcpMaxCharacters?: number;
}

export type CompileErrorCode =
  | "INVALID_PARAMETERS"
  | "INVALID_TREE"
  | "POLICY_LIMIT_EXCEEDED"
  | "PARSE_WAIVER_SCOPE_FAILED"
  | "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE"
  | "CLOUD_INVALID_SCOPE";

/** A bundle that cannot be turned into provider documents; `code` is the product error code. */
export class CompileError extends Error {
  override name = "CompileError";
  constructor(
    readonly code: CompileErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export class PolicyLimitExceededError extends CompileError {
  override name = "PolicyLimitExceededError";
  constructor(
    message: string,
    readonly limit: number,
    readonly actual: number,
  ) {
    super("POLICY_LIMIT_EXCEEDED", message);
  }
}

export function waiverLink(baseUrl: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/req?k=${encodeURIComponent(key)}`;
}

/** Renders `{{policy_key}}`, `{{policy_name}}` and `{{waiver_link}}` in a feedback message template. */
export function renderFeedbackMessage(
  input: Pick<CompileBundleInput, "definition" | "key" | "name" | "waiverLinkBaseUrl">,
): string {
  const values: Record<string, string> = {
    policy_key: input.key,
    policy_name: input.name,
    waiver_link: waiverLink(input.waiverLinkBaseUrl, input.key),
  };
  return input.definition.feedback_message_template.replace(
    /\{\{(\w+)\}\}/g,
    (whole, name: string) => values[name] ?? whole,
  );
}

/** Waivers still in force at `now`; expired ones must not widen the exemption. */
export function activeWaivers(waivers: ActiveWaiver[], now: Date): ActiveWaiver[] {
  return waivers.filter((waiver) => waiver.expiresAt.getTime() > now.getTime());
}
