/**
 * The syntax of a declarative policy for EC2
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html):
 * one top-level key, `ec2_attributes`, holding `exception_message` and the supported attributes, each
 * leaf an object with one inheritance operator (`@@assign`, and on a parent `@@operators_allowed_for_child_policies`;
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_inheritance_mgmt.html).
 * Each attribute's fields and their documented values are known; anything else is refused
 * (stricter than Organizations where its schema is looser).
 */
type Leaf = { values: readonly string[] } | { integer: [number, number] } | { list: true };
type Schema = { [field: string]: Leaf | Schema };

const onOff = { values: ["enabled", "disabled"] } as const;
export const EC2_ATTRIBUTES: Schema = {
  vpc_block_public_access: {
    internet_gateway_block: {
      mode: { values: ["off", "block_ingress", "block_bidirectional"] },
      exclusions_allowed: onOff,
    },
  },
  serial_console_access: { status: onOff },
  image_block_public_access: { state: { values: ["block_new_sharing", "unblocked"] } },
  allowed_images_settings: {
    state: { values: ["enabled", "disabled", "audit_mode"] },
    image_criteria: { list: true },
  },
  instance_metadata_defaults: {
    http_tokens: { values: ["no_preference", "required", "optional"] },
    // -1 means no preference; otherwise 1 to 64 hops.
    http_put_response_hop_limit: { integer: [-1, 64] },
    http_endpoint: { values: ["no_preference", "enabled", "disabled"] },
    instance_metadata_tags: { values: ["no_preference", "enabled", "disabled"] },
  },
  snapshot_block_public_access: {
    state: { values: ["unblocked", "block_new_sharing", "block_all_sharing"] },
  },
};

/**
 * The custom message's bound Palisade keeps to; longer messages are refused. The syntax page
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html)
 * states none; it refers to "Custom error messages for declarative policies"
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative.html#orgs_manage_policies_declarative-custom-message)
 * for the message itself.
 */
export const EXCEPTION_MESSAGE_MAX = 1024;
const OPERATORS = new Set(["@@assign", "@@operators_allowed_for_child_policies"]);
const CHILD_OPERATORS = new Set(["@@assign", "@@none"]);

/** A document that is not a valid declarative policy: `where` is its dotted path, `notJson` when it does not parse. */
export class DeclarativeSyntaxError extends Error {
  override name = "DeclarativeSyntaxError";
  constructor(
    readonly where: string,
    readonly what: string,
    readonly notJson = false,
  ) {
    super(notJson ? "not valid JSON" : `${where}: ${what}`);
  }
}

const malformed = (where: string, what: string) => new DeclarativeSyntaxError(where, what);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function checkOperators(node: Record<string, unknown>, where: string) {
  const allowed = node["@@operators_allowed_for_child_policies"];
  if (allowed === undefined) return;
  if (!Array.isArray(allowed) || allowed.some((o) => typeof o !== "string" || !CHILD_OPERATORS.has(o)))
    throw malformed(where, "@@operators_allowed_for_child_policies must list @@assign or @@none");
}

function checkLeaf(leaf: Leaf, node: unknown, where: string) {
  // image_criteria holds criteria_1, criteria_2, ... objects, each with its own operators.
  if ("list" in leaf) {
    if (!isObject(node)) throw malformed(where, "must be an object");
    for (const [key, child] of Object.entries(node))
      if (!/^criteria_\d+$/.test(key) || !isObject(child))
        throw malformed(`${where}.${key}`, "is not a criterion");
    return;
  }
  if (!isObject(node)) throw malformed(where, "must be an object with an inheritance operator");
  for (const key of Object.keys(node))
    if (!OPERATORS.has(key)) throw malformed(where, `unknown operator ${key}`);
  checkOperators(node, where);
  if (!("@@assign" in node)) return;
  const value = node["@@assign"];
  if ("values" in leaf) {
    if (typeof value !== "string" || !leaf.values.includes(value))
      throw malformed(where, `must be one of ${leaf.values.join(", ")}`);
  } else {
    const n = typeof value === "string" ? Number(value) : value;
    if (
      typeof n !== "number" ||
      !Number.isInteger(n) ||
      n < leaf.integer[0] ||
      n > leaf.integer[1] ||
      n === 0
    )
      throw malformed(where, `must be -1 or an integer from 1 to ${leaf.integer[1]}`);
  }
}

function checkNode(schema: Schema, node: unknown, where: string) {
  if (!isObject(node)) throw malformed(where, "must be an object");
  checkOperators(node, where);
  for (const [key, child] of Object.entries(node)) {
    if (key === "@@operators_allowed_for_child_policies") continue;
    const sub = schema[key];
    if (!sub) throw malformed(`${where}.${key}`, "is not a supported attribute");
    if ("values" in sub || "integer" in sub || "list" in sub)
      checkLeaf(sub as Leaf, child, `${where}.${key}`);
    else checkNode(sub as Schema, child, `${where}.${key}`);
  }
}

/** Parses and validates a DECLARATIVE_POLICY_EC2 document; throws a DeclarativeSyntaxError naming the fault. */
export function validateDeclarativeContent(content: string): void {
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    throw new DeclarativeSyntaxError("$", "not valid JSON", true);
  }
  if (!isObject(doc) || Object.keys(doc).length !== 1 || !isObject(doc.ec2_attributes))
    throw malformed("$", "a declarative policy has one key, ec2_attributes");
  const attrs = doc.ec2_attributes;
  const { exception_message: message, ...rest } = attrs;
  if (message !== undefined) {
    const where = "ec2_attributes.exception_message";
    if (!isObject(message) || Object.keys(message).some((k) => !OPERATORS.has(k)))
      throw malformed(where, "must be an object with an inheritance operator");
    checkOperators(message, where);
    const text = message["@@assign"];
    if (text !== undefined && typeof text !== "string") throw malformed(where, "must be a string");
    if (typeof text === "string" && text.length > EXCEPTION_MESSAGE_MAX)
      throw malformed(where, `must be at most ${EXCEPTION_MESSAGE_MAX} characters`);
  }
  checkNode(EC2_ATTRIBUTES, rest, "ec2_attributes");
}
