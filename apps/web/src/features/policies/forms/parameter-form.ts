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
 * A rejected deploy's problems sorted for the form: each beside its field (parameters under
 * "parameters.<name>"), the others left for the error dialog. They come from the error's field
 * violations; a server that names the fields only in the message text is read from the text.
 */
export function serverFieldErrors(
  error: unknown,
  fields: readonly string[],
): { fields: Record<string, string>; rest: string[] } {
  return fieldErrorsOf(error, fields) ?? messageFieldErrors(errorText(error), fields);
}

/**
 * The server names the field at the start of each problem ("name: required.", "Invalid parameters:
 * parameters.port: must be an integer; ...").
 */
export function messageFieldErrors(
  message: string,
  fields: readonly string[],
): { fields: Record<string, string>; rest: string[] } {
  const parameterPrefix = "Invalid parameters:";
  const out: Record<string, string> = {};
  const rest: string[] = [];
  const inParameters = message.startsWith(parameterPrefix);
  const body = inParameters ? message.slice(parameterPrefix.length) : message;
  for (const part of body
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const colon = part.indexOf(":");
    const field = colon > 0 ? part.slice(0, colon).trim() : "";
    const text = colon > 0 ? part.slice(colon + 1).trim() : part;
    const named = inParameters && !field.startsWith("parameters.") ? `parameters.${field}` : field;
    const key = named.replace(/\[\d+\]$/, "");
    if (field && fields.includes(key)) out[key] = text;
    else rest.push(part);
  }
  return { fields: out, rest };
}
