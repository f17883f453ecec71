import { type DescField, type DescMessage, type Message, toJson } from "@bufbuild/protobuf";
import { pathToString } from "@bufbuild/protobuf/reflect";
import { type FieldMask, ListValueSchema, StructSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import { createValidator, type Violation } from "@bufbuild/protovalidate";
import type { Interceptor } from "@connectrpc/connect";
import { contractRulesRegistry } from "@palisade/api/contract-rules";
import { type FieldProblem, invalidArgument } from "../../rpc/errors";

/** Bounds of the free-form JSON fields (google.protobuf.Struct, Value, ListValue) of a request. */
export const JSON_FIELD_MAX_DEPTH = 10;
export const JSON_FIELD_MAX_BYTES = 64 * 1024;
/** Object members and list items of one free-form JSON value, counted at every level. */
export const JSON_FIELD_MAX_ENTRIES = 2_000;
/** Bounds of a google.protobuf.FieldMask in a request. */
export const FIELD_MASK_MAX_PATHS = 64;
export const FIELD_MASK_MAX_PATH_LENGTH = 128;
/** Messages nested deeper than this in one request are refused (the policy tree is recursive). */
export const MESSAGE_MAX_DEPTH = 32;

const jsonSchemas = new Map<string, DescMessage>([
  [StructSchema.typeName, StructSchema],
  [ValueSchema.typeName, ValueSchema],
  [ListValueSchema.typeName, ListValueSchema],
]);

/**
 * Every request passes here after authentication: each field is checked against the bound the
 * contract declares for it (`buf.validate` rules in `proto/`), and the free-form JSON and field
 * mask fields against the bounds above. A request over a bound answers `invalid_argument` with
 * one field violation per field at fault, naming the rule ("comment: value length must be at
 * most 220 characters [string.max_len]").
 */
export function createValidateInterceptor(): Interceptor {
  const registry = contractRulesRegistry();
  const validator = createValidator({ registry });
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const problems = [...boundsOfFreeFormFields(req.method.input, req.message as Message, "", 0)];
    if (problems.length === 0) {
      const schema = registry.getMessage(req.method.input.typeName);
      if (!schema) throw new Error(`No validation rules for ${req.method.input.typeName}`);
      // The request was decoded with the generated schema, which shares every field with this one.
      const result = validator.validate(schema, req.message as never);
      if (result.kind === "error") throw result.error;
      if (result.kind === "invalid") problems.push(...result.violations.map(problemOf));
    }
    const [first] = problems;
    if (first) {
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
      throw invalidArgument(`${first.field}: ${first.message}${more}`, problems);
    }
    return next(req);
  };
}

function problemOf(violation: Violation): FieldProblem {
  return { field: pathToString(violation.field), message: `${violation.message} [${violation.ruleId}]` };
}

function fieldValues(message: Message, field: DescField): unknown[] {
  const holder = message as unknown as Record<string, unknown>;
  let value: unknown;
  if (field.oneof) {
    const selected = holder[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
    value = selected?.case === field.localName ? selected.value : undefined;
  } else {
    value = holder[field.localName];
  }
  if (value === undefined || value === null) return [];
  if (field.fieldKind === "list") return value as unknown[];
  if (field.fieldKind === "map") return Object.values(value as Record<string, unknown>);
  return [value];
}

function* boundsOfFreeFormFields(
  schema: DescMessage,
  message: Message,
  path: string,
  depth: number,
): Generator<FieldProblem> {
  if (depth > MESSAGE_MAX_DEPTH) {
    yield { field: path, message: `nested deeper than ${MESSAGE_MAX_DEPTH} levels [message.max_depth]` };
    return;
  }
  for (const field of schema.fields) {
    const target =
      field.fieldKind === "message" || field.fieldKind === "list" || field.fieldKind === "map"
        ? field.message
        : undefined;
    if (!target) continue;
    const fieldPath = path ? `${path}.${field.name}` : field.name;
    const values = fieldValues(message, field);
    for (const [index, value] of values.entries()) {
      const at = field.fieldKind === "list" ? `${fieldPath}[${index}]` : fieldPath;
      const jsonSchema = jsonSchemas.get(target.typeName);
      if (jsonSchema) {
        const problem = jsonBoundProblem(jsonOf(jsonSchema, value));
        if (problem) yield { field: at, message: problem };
      } else if (target.typeName === "google.protobuf.FieldMask") {
        const problem = fieldMaskProblem(value as FieldMask);
        if (problem) yield { field: at, message: problem };
      } else if (!target.typeName.startsWith("google.protobuf.")) {
        yield* boundsOfFreeFormFields(target, value as Message, at, depth + 1);
      }
    }
  }
}

/**
 * The JSON a Struct, Value or ListValue field holds. The generated code decodes these fields into
 * plain JSON (`JsonObject`, `JsonValue`), which is measured as it is; a message of the schema (as a
 * caller may build one) is turned into its JSON first; a Value without a kind stands for nothing.
 */
function jsonOf(schema: DescMessage, value: unknown): unknown {
  if (!isMessage(value)) return value;
  try {
    return toJson(schema, value);
  } catch {
    return null;
  }
}

function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && "$typeName" in value;
}

/** The nesting depth and the number of members and items of a JSON value, in one walk. */
function jsonShape(value: unknown): { depth: number; entries: number } {
  const children = Array.isArray(value)
    ? value
    : value !== null && typeof value === "object"
      ? Object.values(value)
      : undefined;
  if (!children) return { depth: 0, entries: 0 };
  let depth = 0;
  let entries = children.length;
  for (const child of children) {
    const shape = jsonShape(child);
    depth = Math.max(depth, shape.depth);
    entries += shape.entries;
  }
  return { depth: depth + 1, entries };
}

/** Why a free-form JSON value is over its bounds, or undefined when it is within them. */
export function jsonBoundProblem(value: unknown): string | undefined {
  const size = Buffer.byteLength(JSON.stringify(value) ?? "");
  if (size > JSON_FIELD_MAX_BYTES) {
    return `value must be at most ${JSON_FIELD_MAX_BYTES / 1024} KB of JSON; got ${Math.ceil(size / 1024)} KB [json.max_bytes]`;
  }
  const { depth, entries } = jsonShape(value);
  if (depth > JSON_FIELD_MAX_DEPTH) {
    return `value must nest at most ${JSON_FIELD_MAX_DEPTH} levels of objects and lists; got ${depth} [json.max_depth]`;
  }
  if (entries > JSON_FIELD_MAX_ENTRIES) {
    return `value must hold at most ${JSON_FIELD_MAX_ENTRIES} members and items; got ${entries} [json.max_entries]`;
  }
  return undefined;
}

function fieldMaskProblem(mask: FieldMask): string | undefined {
  if (mask.paths.length > FIELD_MASK_MAX_PATHS) {
    return `must list at most ${FIELD_MASK_MAX_PATHS} paths [field_mask.max_paths]`;
  }
  if (mask.paths.some((p) => p.length > FIELD_MASK_MAX_PATH_LENGTH)) {
    return `each path must be at most ${FIELD_MASK_MAX_PATH_LENGTH} characters [field_mask.max_path_length]`;
  }
  return undefined;
}
