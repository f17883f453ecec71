import { type JsonObject, type JsonValue, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import {
  ParameterType,
  type PolicyDefinition,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { fieldErrorsOf } from "@/lib/error-detail";
import { errorText } from "@/lib/error-text";

/** A parameter definition with its default and allowed values already read as JSON. */
export interface ParameterSpec {
  name: string;
  label: string;
  description: string;
  type: ParameterType;
  defaultValue: JsonValue | undefined;
  allowedValues: JsonValue[];
}

/** The parameter definitions of a policy, with their defaults and allowed values read as JSON. */
export function parameterSpecsOf(definition: PolicyDefinition | undefined): ParameterSpec[] {
  return (definition?.parameterDefinitions ?? []).map((p) => ({
    name: p.name,
    label: p.displayName || p.name,
    description: p.description,
    type: p.type,
    defaultValue: p.defaultValue ? toJson(ValueSchema, p.defaultValue) : undefined,
    allowedValues: p.allowedValues.map((v) => toJson(ValueSchema, v)),
  }));
}

/** What a field holds while it is edited: text for numbers, strings, lists and objects; a flag for booleans. */
export type ParameterInput = string | boolean;

export type ParameterInputs = Record<string, ParameterInput>;

export type ParameterResult =
  | { ok: true; values: JsonObject }
  | { ok: false; errors: Record<string, string> };

function textOf(value: JsonValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The field's starting value: the definition's default in the form the field edits. */
export function initialInput(spec: ParameterSpec): ParameterInput {
  const value = spec.defaultValue;
  if (spec.type === ParameterType.BOOLEAN) return value === true;
  if (value === undefined || value === null) return "";
  if (spec.type === ParameterType.ARRAY && Array.isArray(value)) return value.map(textOf).join("\n");
  if (spec.type === ParameterType.OBJECT) return JSON.stringify(value, null, 2);
  return textOf(value);
}

export function initialInputs(specs: readonly ParameterSpec[]): ParameterInputs {
  return Object.fromEntries(specs.map((spec) => [spec.name, initialInput(spec)]));
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One array item typed after the allowed values when there are some (numbers stay numbers). */
function arrayItem(text: string, allowed: readonly JsonValue[]): JsonValue {
  const match = allowed.find((value) => textOf(value) === text);
  return match ?? text;
}

function convert(spec: ParameterSpec, input: ParameterInput): { value?: JsonValue; error?: string } {
  if (spec.type === ParameterType.BOOLEAN) return { value: input === true };
  const text = typeof input === "string" ? input.trim() : "";
  if (text === "") {
    return spec.type === ParameterType.ARRAY ? { value: [] } : { error: "Required." };
  }
  switch (spec.type) {
    case ParameterType.INTEGER: {
      if (!/^-?\d+$/.test(text)) return { error: "Enter a whole number." };
      return { value: Number(text) };
    }
    case ParameterType.FLOAT: {
      const number = Number(text);
      if (!Number.isFinite(number)) return { error: "Enter a number." };
      return { value: number };
    }
    case ParameterType.ARRAY: {
      const items = text
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => arrayItem(item, spec.allowedValues));
      return { value: items };
    }
    case ParameterType.OBJECT: {
      try {
        const parsed: unknown = JSON.parse(text);
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
          return { error: "Enter a JSON object." };
        }
        return { value: parsed as JsonObject };
      } catch {
        return { error: "Enter valid JSON." };
      }
    }
    default:
      return { value: text };
  }
}

function outsideAllowed(spec: ParameterSpec, value: JsonValue): string | undefined {
  if (spec.allowedValues.length === 0) return undefined;
  const values = Array.isArray(value) ? value : [value];
  const wrong = values.find((v) => !spec.allowedValues.some((allowed) => sameJson(allowed, v)));
  return wrong === undefined ? undefined : `${textOf(wrong)} is not one of the allowed values.`;
}

/** The parameters to send, or the message to show beside each field that cannot be sent. */
export function parameterValues(specs: readonly ParameterSpec[], inputs: ParameterInputs): ParameterResult {
  const values: JsonObject = {};
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const { value, error } = convert(spec, inputs[spec.name] ?? initialInput(spec));
    const problem = error ?? (value === undefined ? "Required." : outsideAllowed(spec, value));
    if (problem) errors[spec.name] = problem;
    else if (value !== undefined) values[spec.name] = value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}

/**
 * A rejected deploy's problems sorted for the form: each field violation beside its field
 * (parameters under "parameters.<name>"), everything else left for the error dialog.
 */
export function serverFieldErrors(
  error: unknown,
  fields: readonly string[],
): { fields: Record<string, string>; rest: string[] } {
  return fieldErrorsOf(error, fields) ?? { fields: {}, rest: [errorText(error)] };
}
