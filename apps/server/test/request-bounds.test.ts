import {
  create,
  type DescField,
  type DescMessage,
  type DescMethod,
  fromJson,
  getOption,
  hasOption,
  type JsonValue,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { ListValueSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import {
  type FieldRules,
  field as fieldRulesOption,
} from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { Code, ConnectError } from "@connectrpc/connect";
import { contractRulesRegistry } from "@palisade/api/contract-rules";
import { ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { allServices } from "@palisade/api/services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIELD_MASK_MAX_PATHS,
  JSON_FIELD_MAX_BYTES,
  JSON_FIELD_MAX_DEPTH,
  JSON_FIELD_MAX_ENTRIES,
} from "../src/boot/rpc/validate-interceptor";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

/**
 * Every field of every request message is walked in the contract (with its buf.validate rules);
 * each bound becomes one call that exceeds it, which must answer invalid_argument naming the
 * field and the rule. A string, bytes, list, map or number field without a bound fails the
 * first test, so a new field cannot be added without one.
 */

/** Message types whose bounds the validation interceptor applies itself (free-form JSON, masks). */
const BOUNDED_BY_INTERCEPTOR = new Set([
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
  "google.protobuf.FieldMask",
]);
/**
 * Free-form JSON fields, each with a value past each of its bounds in the shape the generated code
 * holds it: a Struct field as plain JSON, a Value or ListValue field as its message.
 */
const JSON_TYPES = new Map<string, DescMessage | undefined>([
  ["google.protobuf.Struct", undefined],
  ["google.protobuf.Value", ValueSchema],
  ["google.protobuf.ListValue", ListValueSchema],
]);

function overBoundJson(typeName: string): [ruleId: string, leaf: unknown][] {
  const schema = JSON_TYPES.get(typeName);
  return overBoundJsonValues(typeName).map(([ruleId, json]) => [
    ruleId,
    schema ? fromJson(schema, json as JsonValue) : json,
  ]);
}

function overBoundJsonValues(typeName: string): [ruleId: string, json: unknown][] {
  let deep: unknown = "deep";
  for (let i = 0; i < JSON_FIELD_MAX_DEPTH + 1; i++) deep = { n: deep };
  const large = { big: "x".repeat(JSON_FIELD_MAX_BYTES) };
  const many = Object.fromEntries(Array.from({ length: JSON_FIELD_MAX_ENTRIES + 1 }, (_, i) => [`k${i}`, 0]));
  if (typeName === "google.protobuf.ListValue") {
    return [
      ["json.max_depth", [deep]],
      ["json.max_bytes", [large.big]],
      ["json.max_entries", Array.from({ length: JSON_FIELD_MAX_ENTRIES + 1 }, () => 0)],
    ];
  }
  return [
    ["json.max_depth", deep],
    ["json.max_bytes", large],
    ["json.max_entries", many],
  ];
}

/** Message types with no string, list or number a caller could make large. */
const NOTHING_TO_BOUND = new Set(["google.protobuf.Timestamp", "google.protobuf.Duration"]);

/** One step from a message into a field: the leaf field, or a message on the way to it. */
interface Step {
  field: DescField;
}

interface BoundCase {
  method: DescMethod;
  /** The field's path as the violation names it ("filter.requested_by[0]"). */
  path: string;
  ruleId: string;
  request: Record<string, unknown>;
}

const registry = contractRulesRegistry();

function rulesOf(field: DescField): FieldRules | undefined {
  return hasOption(field, fieldRulesOption) ? getOption(field, fieldRulesOption) : undefined;
}

function pathOf(steps: readonly Step[], leafSuffix = ""): string {
  return (
    steps
      .map((s, i) => {
        const last = i === steps.length - 1;
        if (last) return s.field.name;
        if (s.field.fieldKind === "list") return `${s.field.name}[0]`;
        if (s.field.fieldKind === "map") return `${s.field.name}["k"]`;
        return s.field.name;
      })
      .join(".") + leafSuffix
  );
}

/** The request (a message init object) that holds `leaf` at the end of `steps`. */
function requestWith(steps: readonly Step[], leaf: unknown): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = steps.length - 1; i >= 0; i--) {
    const field = steps[i]?.field;
    if (!field) break;
    if (i < steps.length - 1) {
      if (field.fieldKind === "list") value = [value];
      else if (field.fieldKind === "map") value = { k: value };
    }
    value = field.oneof
      ? { [field.oneof.localName]: { case: field.localName, value } }
      : { [field.localName]: value };
  }
  return value as Record<string, unknown>;
}

type Scalar = "string" | "bytes" | "number" | "bigint";

function scalarKind(field: DescField): Scalar | "other" {
  const type = field.fieldKind === "scalar" || field.fieldKind === "list" ? field.scalar : undefined;
  switch (type) {
    case 9:
      return "string";
    case 12:
      return "bytes";
    case 3:
    case 4:
    case 6:
    case 16:
    case 18:
      return "bigint";
    case 1:
    case 2:
    case 5:
    case 7:
    case 13:
    case 15:
    case 17:
      return "number";
    default:
      return "other";
  }
}

function oversizedText(max: bigint, kind: "string" | "bytes"): unknown {
  const length = Number(max) + 1;
  return kind === "string" ? "a".repeat(length) : new Uint8Array(length);
}

/** The upper bound of a number rule and the value just past it, or undefined when unbounded. */
function numberPastBound(
  rules: FieldRules | undefined,
): { value: number | bigint; ruleId: string } | undefined {
  const typed = rules?.type;
  if (!typed?.case || !("lessThan" in typed.value)) return undefined;
  const lessThan = (typed.value as { lessThan: { case?: string; value?: number | bigint } }).lessThan;
  if (lessThan.case === undefined || lessThan.value === undefined) return undefined;
  const bound = lessThan.value;
  const past =
    typeof bound === "bigint"
      ? bound + (lessThan.case === "lte" ? 1n : 0n)
      : bound + (lessThan.case === "lte" ? 1 : 0);
  // With a lower bound too, the rule is named after both ("int64.gte_lte").
  const greaterThan = (typed.value as { greaterThan: { case?: string } }).greaterThan;
  const name = greaterThan.case ? `${greaterThan.case}_${lessThan.case}` : lessThan.case;
  return { value: past, ruleId: `${typed.case}.${name}` };
}

function maxLenOf(rules: FieldRules | undefined, kind: "string" | "bytes"): bigint | undefined {
  if (rules?.type.case !== kind) return undefined;
  const max = rules.type.value.maxLen;
  return max !== undefined && max > 0n ? max : undefined;
}

/** Walks one request message: its bound cases, and every field left without a bound. */
function walk(
  method: DescMethod,
  message: DescMessage,
  steps: readonly Step[],
  onStack: ReadonlySet<string>,
  cases: BoundCase[],
  unbounded: string[],
) {
  for (const field of message.fields) {
    const here = [...steps, { field }];
    const path = pathOf(here);
    const where = `${message.typeName}.${field.name} (${path} in ${method.parent.name}.${method.name})`;
    const rules = rulesOf(field);
    const push = (ruleId: string, leaf: unknown, at = path) =>
      cases.push({ method, path: at, ruleId, request: requestWith(here, leaf) });

    if (field.fieldKind === "scalar") {
      const kind = scalarKind(field);
      if (kind === "string" || kind === "bytes") {
        const max = maxLenOf(rules, kind);
        if (max === undefined) unbounded.push(where);
        else push(`${kind}.max_len`, oversizedText(max, kind));
      } else if (kind === "number" || kind === "bigint") {
        const past = numberPastBound(rules);
        if (!past) unbounded.push(where);
        else push(past.ruleId, past.value);
      }
      continue;
    }
    if (field.fieldKind === "enum") continue;
    if (field.fieldKind === "message") {
      const target = field.message.typeName;
      if (JSON_TYPES.has(target)) {
        for (const [ruleId, leaf] of overBoundJson(target)) push(ruleId, leaf);
        continue;
      }
      if (BOUNDED_BY_INTERCEPTOR.has(target) || NOTHING_TO_BOUND.has(target) || onStack.has(target)) continue;
      if (target.startsWith("google.protobuf.")) {
        unbounded.push(`${where}: ${target} has no known bound`);
        continue;
      }
      walk(method, field.message, here, new Set([...onStack, target]), cases, unbounded);
      continue;
    }
    if (field.fieldKind === "list") {
      const repeated = rules?.type.case === "repeated" ? rules.type.value : undefined;
      const maxItems = repeated?.maxItems && repeated.maxItems > 0n ? Number(repeated.maxItems) : undefined;
      if (maxItems === undefined) {
        unbounded.push(`${where}: list without max_items`);
        continue;
      }
      const element =
        field.listKind === "message"
          ? field.message.typeName === "google.protobuf.Value"
            ? { kind: { case: "nullValue", value: 0 } }
            : {}
          : field.listKind === "enum"
            ? 0
            : defaultScalar(field);
      push(
        "repeated.max_items",
        Array.from({ length: maxItems + 1 }, () => element),
      );
      if (field.listKind === "scalar") {
        const kind = scalarKind(field);
        if (kind === "string" || kind === "bytes") {
          const max = maxLenOf(repeated?.items, kind);
          if (max === undefined) unbounded.push(`${where}: items without max_len`);
          else push(`${kind}.max_len`, [oversizedText(max, kind)], `${path}[0]`);
        } else if (kind !== "other" && !numberPastBound(repeated?.items)) {
          unbounded.push(`${where}: items without an upper bound`);
        }
      } else if (field.listKind === "message") {
        const target = field.message.typeName;
        if (!BOUNDED_BY_INTERCEPTOR.has(target) && !NOTHING_TO_BOUND.has(target) && !onStack.has(target)) {
          walk(method, field.message, here, new Set([...onStack, target]), cases, unbounded);
        }
      }
      continue;
    }
    if (field.fieldKind === "map") {
      const map = rules?.type.case === "map" ? rules.type.value : undefined;
      const maxPairs = map?.maxPairs && map.maxPairs > 0n ? Number(map.maxPairs) : undefined;
      if (maxPairs === undefined) {
        unbounded.push(`${where}: map without max_pairs`);
        continue;
      }
      const value = field.mapKind === "message" ? {} : field.mapKind === "enum" ? 0 : "";
      push(
        "map.max_pairs",
        Object.fromEntries(Array.from({ length: maxPairs + 1 }, (_, i) => [`k${i}`, value])),
      );
      const keyMax = map?.keys?.type.case === "string" ? map.keys.type.value.maxLen : undefined;
      if (field.mapKey === 9 && !(keyMax && keyMax > 0n))
        unbounded.push(`${where}: map keys without max_len`);
      if (field.mapKind === "scalar" && field.scalar === 9) {
        const valueMax = maxLenOf(map?.values, "string");
        if (valueMax === undefined) unbounded.push(`${where}: map values without max_len`);
      }
      if (field.mapKind === "message") {
        const target = field.message.typeName;
        if (!BOUNDED_BY_INTERCEPTOR.has(target) && !NOTHING_TO_BOUND.has(target) && !onStack.has(target)) {
          walk(method, field.message, here, new Set([...onStack, target]), cases, unbounded);
        }
      }
    }
  }
}

function defaultScalar(field: DescField): unknown {
  const kind = scalarKind(field);
  if (kind === "string") return "a";
  if (kind === "bytes") return new Uint8Array(1);
  if (kind === "bigint") return 0n;
  if (kind === "number") return 0;
  return false;
}

const cases: BoundCase[] = [];
const unbounded: string[] = [];
for (const service of allServices) {
  for (const method of service.methods) {
    const input = registry.getMessage(method.input.typeName);
    if (!input) throw new Error(`${method.input.typeName} is missing from the contract rules`);
    walk(method, input, [], new Set([input.typeName]), cases, unbounded);
  }
}

describe("request bounds declared in the contract", () => {
  let server: TestServer;
  let admin: Credentials;
  beforeAll(async () => {
    server = await startTestServer("pglite", { PUBLIC_RATE_LIMIT_BURST: "100000" });
    admin = (await server.addMember({ role: "ADMINISTRATOR" })).credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every string, bytes, list, map and number field of every request carries a bound", () => {
    expect(
      unbounded,
      `Fields without a bound: add a buf.validate rule to each in proto/ (see docs/api.md, "Limits"):\n  ${unbounded.join("\n  ")}\n`,
    ).toEqual([]);
    expect(cases.length).toBeGreaterThan(200);
  });

  async function call(method: DescMethod, request: MessageInitShape<DescMessage>): Promise<ConnectError> {
    const service = method.parent as GenService<GenServiceMethods>;
    const client = server.client(service, admin) as unknown as Record<
      string,
      (r: unknown) => Promise<unknown>
    >;
    try {
      await client[method.localName]?.(create(method.input, request));
    } catch (error) {
      return ConnectError.from(error);
    }
    throw new Error(`${method.parent.name}.${method.name} accepted a request over a bound`);
  }

  // One call per bound in the contract, one after another: on a slow, busy 2-core machine the
  // whole walk has taken over a minute.
  it("a request over any one bound answers invalid_argument naming the field and the rule", {
    timeout: 180_000,
  }, async () => {
    const failures: string[] = [];
    for (const c of cases) {
      const error = await call(c.method, c.request);
      const violations = error.findDetails(ErrorDetailSchema)[0]?.fieldViolations ?? [];
      const named = violations.find((v) => v.field === c.path && v.message.includes(`[${c.ruleId}]`));
      if (error.code !== Code.InvalidArgument || !named) {
        failures.push(
          `${c.method.parent.name}.${c.method.name} ${c.path} [${c.ruleId}]: ${Code[error.code]} ${error.rawMessage} ${JSON.stringify(violations.map((v) => v.field))}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("the message of the error names the field, the bound and the rule", async () => {
    const { WaiverService } = await import("@palisade/api/gen/palisade/waiver/v1/waiver_service_pb");
    const error = await call(WaiverService.method.create, {
      key: "ABCDEFG",
      duration: 3600n,
      comment: "x".repeat(2201),
    });
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toBe("comment: must be at most 2200 characters [string.max_len]");
  });

  describe("field masks", () => {
    it(`refuses a field mask of more than ${FIELD_MASK_MAX_PATHS} paths`, async () => {
      const { DeploymentManagerService } = await import(
        "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb"
      );
      const error = await call(DeploymentManagerService.method.getBundle, {
        lookup: { case: "key", value: "ABCDEFG" },
        excludeMask: { paths: Array.from({ length: FIELD_MASK_MAX_PATHS + 1 }, (_, i) => `p${i}`) },
      });
      expect(error.code).toBe(Code.InvalidArgument);
      const [violation] = error.findDetails(ErrorDetailSchema)[0]?.fieldViolations ?? [];
      expect(violation?.field).toBe("exclude_mask");
      expect(violation?.message).toContain("[field_mask.max_paths]");
    });
  });
});
