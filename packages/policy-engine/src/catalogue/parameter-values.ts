import type { ParameterDefinition, TargetType } from "./definition-schema";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:]+$/;

function isIp(value: string): boolean {
  return IPV4.test(value) || (value.includes(":") && IPV6.test(value));
}

function checkTarget(target: TargetType, value: unknown): string | undefined {
  switch (target) {
    case "string":
      return typeof value === "string" ? undefined : "expected a string";
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected a boolean";
    case "integer":
      return Number.isInteger(value) ? undefined : "expected an integer";
    case "float":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "expected a number";
    case "port":
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535
        ? undefined
        : "expected a port number from 0 to 65535";
    case "ip":
      return typeof value === "string" && isIp(value) ? undefined : "expected an IP address";
    case "cidr": {
      if (typeof value !== "string") return "expected a CIDR block";
      const [address, prefix, extra] = value.split("/");
      const bits = Number(prefix);
      const max = address?.includes(":") ? 128 : 32;
      return extra === undefined &&
        address &&
        isIp(address) &&
        Number.isInteger(bits) &&
        bits >= 0 &&
        bits <= max
        ? undefined
        : "expected a CIDR block like 10.0.0.0/16";
    }
  }
}

function checkType(definition: ParameterDefinition, value: unknown): string | undefined {
  switch (definition.type) {
    case "string":
    case "integer":
    case "float":
    case "boolean":
      return (
        checkTarget(definition.target_type ?? definition.type, value) ?? checkTarget(definition.type, value)
      );
    case "array": {
      if (!Array.isArray(value)) return "expected an array";
      if (definition.target_type === undefined) return undefined;
      for (const [index, item] of value.entries()) {
        const problem = checkTarget(definition.target_type, item);
        if (problem) return `item ${index}: ${problem}`;
      }
      return undefined;
    }
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value)
        ? undefined
        : "expected an object";
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Checks a value against its parameter definition: type, target type, and allowed values (for arrays
 * every item must be allowed). Returns a message, or undefined when the value is acceptable.
 */
export function checkParameterValue(definition: ParameterDefinition, value: unknown): string | undefined {
  const typeProblem = checkType(definition, value);
  if (typeProblem) return typeProblem;
  if (definition.allowed_values.length === 0) return undefined;
  const items = definition.type === "array" ? (value as unknown[]) : [value];
  for (const item of items) {
    if (!definition.allowed_values.some((allowed) => sameValue(allowed, item))) {
      return `${JSON.stringify(item)} is not one of the allowed values ${definition.allowed_values
        .map((v) => JSON.stringify(v))
        .join(", ")}`;
    }
  }
  return undefined;
}

/** Allowed values list single items, so for array parameters they are checked against the target type. */
export function checkAllowedValue(definition: ParameterDefinition, value: unknown): string | undefined {
  if (definition.type === "array") {
    return definition.target_type ? checkTarget(definition.target_type, value) : undefined;
  }
  return checkType(definition, value);
}
