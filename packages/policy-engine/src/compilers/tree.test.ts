import { describe, expect, it } from "vitest";
import { awsDefinition, azureDefinition } from "../../test/bundles";
import type { ParameterDefinition } from "../catalogue/definition-schema";
import { resolveBundleParameters, substituteAwsPlaceholders, validateBundleParameters } from "./tree";

const param = (
  name: string,
  type: ParameterDefinition["type"],
  extra: Partial<ParameterDefinition> = {},
): ParameterDefinition => ({
  name,
  display_name: name,
  description: name,
  type,
  allowed_values: [],
  ...extra,
});

describe("validateBundleParameters", () => {
  const imds = awsDefinition("require-ec2-imdsv2");
  const regions = awsDefinition("deny-regions-outside-allowlist");

  it.each<
    [string, ReturnType<typeof awsDefinition>, Record<string, unknown>, { field: string; message: string }[]]
  >([
    ["defaults only", imds, {}, []],
    ["an allowed value", imds, { max_hop_limit: 1 }, []],
    [
      "a value outside the allowed list",
      imds,
      { max_hop_limit: 4 },
      [
        {
          field: "parameters.max_hop_limit",
          message: "Maximum metadata hop limit: 4 is not one of the allowed values 1, 2, 3",
        },
      ],
    ],
    [
      "a string for an integer",
      imds,
      { max_hop_limit: "2" },
      [{ field: "parameters.max_hop_limit", message: "Maximum metadata hop limit: expected an integer" }],
    ],
    [
      "an unknown parameter",
      imds,
      { hop_limit: 1 },
      [{ field: "parameters.hop_limit", message: "require-ec2-imdsv2 has no parameter hop_limit" }],
    ],
    [
      "a scalar for an array",
      regions,
      { allowed_regions: "eu-west-1" },
      [{ field: "parameters.allowed_regions", message: "Allowed regions: expected an array" }],
    ],
    [
      "an array item of the wrong type",
      regions,
      { allowed_regions: ["eu-west-1", 5] },
      [{ field: "parameters.allowed_regions", message: "Allowed regions: item 1: expected a string" }],
    ],
  ])("%s", (_name, definition, parameters, errors) => {
    expect(validateBundleParameters(definition, parameters)).toEqual(errors);
  });

  it("requires a value when there is no default", () => {
    const definition = {
      ...azureDefinition("deny-nic-public-ip"),
      parameter_definitions: [param("allowedSubnets", "array")],
    };
    expect(validateBundleParameters(definition, {})).toEqual([
      { field: "parameters.allowedSubnets", message: "allowedSubnets is required" },
    ]);
  });

  it.each<[ParameterDefinition, unknown, string | undefined]>([
    [param("port", "integer", { target_type: "port" }), 443, undefined],
    [
      param("port", "integer", { target_type: "port" }),
      70000,
      "port: expected a port number from 0 to 65535",
    ],
    [param("cidrs", "array", { target_type: "cidr" }), ["10.0.0.0/8", "2001:db8::/32"], undefined],
    [
      param("cidrs", "array", { target_type: "cidr" }),
      ["10.0.0.0/33"],
      "cidrs: item 0: expected a CIDR block like 10.0.0.0/16",
    ],
    [param("ip", "string", { target_type: "ip" }), "300.1.1.1", "ip: expected an IP address"],
    [param("tags", "object"), { env: "prod" }, undefined],
    [param("tags", "object"), ["env"], "tags: expected an object"],
  ])("checks %o against %j", (definition, value, message) => {
    const errors = validateBundleParameters(
      { ...awsDefinition("deny-leave-organization"), parameter_definitions: [definition] },
      { [definition.name]: value },
    );
    expect(errors.map((e) => e.message)).toEqual(message ? [message] : []);
  });

  it("resolveBundleParameters merges over defaults and throws on errors", () => {
    expect(resolveBundleParameters(imds, {})).toEqual({ max_hop_limit: 2 });
    expect(resolveBundleParameters(imds, { max_hop_limit: 1 })).toEqual({ max_hop_limit: 1 });
    expect(() => resolveBundleParameters(imds, { max_hop_limit: 7 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETERS" }),
    );
  });
});

describe("substituteAwsPlaceholders", () => {
  const defs = [
    param("regions", "array"),
    param("env", "string"),
    param("limit", "integer"),
    param("flag", "boolean"),
    param("empty", "array"),
  ];
  const values = { regions: ["eu-west-1", "eu-central-1"], env: "prod", limit: 3, flag: true, empty: [] };

  it.each<[string, unknown, unknown]>([
    [
      "a whole-string array placeholder becomes a list",
      { v: "{{regions}}" },
      { v: ["eu-west-1", "eu-central-1"] },
    ],
    [
      "an array placeholder inside a list is spliced",
      ["us-east-1", "{{regions}}"],
      ["us-east-1", "eu-west-1", "eu-central-1"],
    ],
    ["numbers and booleans become strings", ["{{limit}}", "{{flag}}"], ["3", "true"]],
    ["placeholders inside longer strings", "arn:aws:s3:::{{env}}-logs/*", "arn:aws:s3:::prod-logs/*"],
    ["placeholders in condition keys", { "aws:ResourceTag/{{env}}": "x" }, { "aws:ResourceTag/prod": "x" }],
    ["text without placeholders is unchanged", { Action: "s3:*" }, { Action: "s3:*" }],
  ])("%s", (_name, template, expected) => {
    expect(substituteAwsPlaceholders(template, values, defs)).toEqual(expected);
  });

  it.each<[string, unknown, RegExp]>([
    ["an array inside a longer string", "arn:aws:s3:::{{regions}}", /not a single value/],
    ["an empty array", "{{empty}}", /must not be empty/],
    ["an undeclared placeholder", "{{missing}}", /has no parameter value/],
  ])("rejects %s", (_name, template, message) => {
    expect(() => substituteAwsPlaceholders(template, values, defs)).toThrow(message);
  });
});
