import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ParameterType } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { describe, expect, it } from "vitest";
import { initialInput, type ParameterSpec, parameterValues, serverFieldErrors } from "./parameter-form";

function spec(type: ParameterType, extra: Partial<ParameterSpec> = {}): ParameterSpec {
  return {
    name: "p",
    label: "P",
    description: "",
    type,
    defaultValue: undefined,
    allowedValues: [],
    ...extra,
  };
}

describe("initialInput", () => {
  it.each([
    [spec(ParameterType.INTEGER, { defaultValue: 443 }), "443"],
    [spec(ParameterType.STRING, { defaultValue: "eu-west-1" }), "eu-west-1"],
    [spec(ParameterType.STRING), ""],
    [spec(ParameterType.BOOLEAN, { defaultValue: true }), true],
    [spec(ParameterType.BOOLEAN), false],
    [spec(ParameterType.ARRAY, { defaultValue: ["a", 22] }), "a\n22"],
    [spec(ParameterType.OBJECT, { defaultValue: { a: 1 } }), '{\n  "a": 1\n}'],
    [spec(ParameterType.FLOAT, { defaultValue: 0.5 }), "0.5"],
  ])("%j -> %j", (parameter, expected) => {
    expect(initialInput(parameter)).toEqual(expected);
  });
});

describe("parameterValues", () => {
  it.each([
    [spec(ParameterType.INTEGER), "22", 22],
    [spec(ParameterType.INTEGER), " -3 ", -3],
    [spec(ParameterType.FLOAT), "1.25", 1.25],
    [spec(ParameterType.STRING), " eu-west-1 ", "eu-west-1"],
    [spec(ParameterType.BOOLEAN), true, true],
    [spec(ParameterType.BOOLEAN), false, false],
    [spec(ParameterType.ARRAY), "a\nb, c", ["a", "b", "c"]],
    [spec(ParameterType.ARRAY), "", []],
    [spec(ParameterType.ARRAY, { allowedValues: [22, 443, "x"] }), "22\n443\nx", [22, 443, "x"]],
    [spec(ParameterType.OBJECT), '{"k": [1]}', { k: [1] }],
    [spec(ParameterType.STRING, { allowedValues: ["a", "b"] }), "b", "b"],
  ])("%j with %j sends %j", (parameter, input, expected) => {
    expect(parameterValues([parameter], { p: input })).toEqual({ ok: true, values: { p: expected } });
  });

  it.each([
    [spec(ParameterType.INTEGER), "2.5", "Enter a whole number."],
    [spec(ParameterType.INTEGER), "", "Required."],
    [spec(ParameterType.FLOAT), "abc", "Enter a number."],
    [spec(ParameterType.STRING), "  ", "Required."],
    [spec(ParameterType.OBJECT), "[1]", "Enter a JSON object."],
    [spec(ParameterType.OBJECT), "{", "Enter valid JSON."],
    [spec(ParameterType.STRING, { allowedValues: ["a", "b"] }), "c", "c is not one of the allowed values."],
    [
      spec(ParameterType.ARRAY, { allowedValues: [22, 443] }),
      "22\n80",
      "80 is not one of the allowed values.",
    ],
  ])("%j with %j answers %s", (parameter, input, message) => {
    expect(parameterValues([parameter], { p: input })).toEqual({ ok: false, errors: { p: message } });
  });

  it("uses the default of a field that was never edited", () => {
    const parameters = [spec(ParameterType.INTEGER, { name: "port", defaultValue: 22 })];
    expect(parameterValues(parameters, {})).toEqual({ ok: true, values: { port: 22 } });
  });
});

describe("serverFieldErrors", () => {
  const fields = ["name", "parameters.port"];
  const withViolations = new ConnectError(
    "Invalid parameters: port: must be an integer",
    Code.InvalidArgument,
    undefined,
    [
      {
        desc: ErrorDetailSchema,
        value: { fieldViolations: [{ field: "parameters.port", message: "must be a whole number" }] },
      },
    ],
  );

  it("takes the problems from the error's field violations", () => {
    expect(serverFieldErrors(withViolations, fields)).toEqual({
      fields: { "parameters.port": "must be a whole number" },
      rest: [],
    });
  });

  it("leaves an error that names no field for the error dialog", () => {
    const error = new ConnectError("The policy is too large for an SCP.", Code.InvalidArgument);
    expect(serverFieldErrors(error, fields)).toEqual({
      fields: {},
      rest: ["The policy is too large for an SCP."],
    });
  });
});
