import { create, toBinary } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  ErrorDetailSchema,
  FieldViolationSchema,
  ProductErrorCode,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { callConnectJson } from "./connect-json";
import { decodeErrorDetail, errorDetailOf, fieldErrorsOf, productErrorCodeOf } from "./error-detail";
import { RpcError } from "./rpc-error";

const detail = create(ErrorDetailSchema, {
  code: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
  message: "At most 5 pending or active waivers per deployment — ünïcode.",
  fieldViolations: [
    create(FieldViolationSchema, { field: "parameters.port", message: "must be an integer" }),
    create(FieldViolationSchema, { field: "scopes[1]", message: "ou-x is not in this tenant." }),
  ],
});
const plain = {
  code: ProductErrorCode.WAIVER_LIMIT_EXCEEDED,
  message: detail.message,
  fieldViolations: [
    { field: "parameters.port", message: "must be an integer" },
    { field: "scopes[1]", message: "ou-x is not in this tenant." },
  ],
  mfaSetupRequired: false,
};
const bytes = toBinary(ErrorDetailSchema, detail);

describe("decodeErrorDetail", () => {
  it.each([
    ["a full detail", detail, plain],
    [
      "an empty detail",
      create(ErrorDetailSchema),
      { code: 0, message: "", fieldViolations: [], mfaSetupRequired: false },
    ],
    [
      "a code above 127",
      create(ErrorDetailSchema, { code: 300 as ProductErrorCode }),
      { code: 300, message: "", fieldViolations: [], mfaSetupRequired: false },
    ],
    [
      "a violation without a field",
      create(ErrorDetailSchema, { fieldViolations: [create(FieldViolationSchema, { message: "x" })] }),
      { code: 0, message: "", fieldViolations: [{ field: "", message: "x" }], mfaSetupRequired: false },
    ],
    [
      "a tenant's MFA requirement",
      create(ErrorDetailSchema, { message: "Set up MFA", mfaSetupRequired: true }),
      { code: 0, message: "Set up MFA", fieldViolations: [], mfaSetupRequired: true },
    ],
  ])("reads %s as encoded by the protobuf runtime", (_name, message, expected) => {
    expect(decodeErrorDetail(toBinary(ErrorDetailSchema, message))).toEqual(expected);
  });

  it("skips fields it does not know", () => {
    // Field 9 (varint 1), field 10 (bytes "ab"), field 11 (fixed32) and field 12 (fixed64) around the detail.
    const unknown = [0x48, 1, 0x52, 2, 0x61, 0x62, 0x5d, 1, 2, 3, 4, 0x61, 1, 2, 3, 4, 5, 6, 7, 8];
    expect(decodeErrorDetail(new Uint8Array([...unknown, ...bytes]))).toEqual(plain);
  });

  it("gives up on malformed bytes", () => {
    expect(decodeErrorDetail(bytes.subarray(0, bytes.length - 3))).toBeUndefined();
  });
});

describe("errorDetailOf", () => {
  it("reads the detail of a ConnectError received from the wire, as findDetails does", () => {
    const error = new ConnectError("m", Code.FailedPrecondition);
    error.details.push({ type: "palisade.common.v1.ErrorDetail", value: bytes });
    const [found] = error.findDetails(ErrorDetailSchema);
    expect(errorDetailOf(error)).toEqual({
      code: found?.code,
      message: found?.message,
      fieldViolations: found?.fieldViolations.map(({ field, message }) => ({ field, message })),
      mfaSetupRequired: found?.mfaSetupRequired,
    });
  });

  it("reads the detail of a ConnectError raised with a descriptor", () => {
    const error = new ConnectError("m", Code.FailedPrecondition, undefined, [
      { desc: ErrorDetailSchema, value: detail },
    ]);
    expect(errorDetailOf(error)).toEqual(plain);
  });

  it("reads the detail of the JSON client's error, sent as base64 in the error body", async () => {
    const body = JSON.stringify({
      code: "failed_precondition",
      message: "Policy ABCDEFG already has 5 pending or active waivers",
      details: [
        { type: "google.rpc.DebugInfo", value: "AAAA" },
        // Connect may leave out the padding.
        { type: "palisade.common.v1.ErrorDetail", value: base64Encode(bytes, "std_raw") },
      ],
    });
    const fetch: typeof globalThis.fetch = async () => new Response(body, { status: 400 });
    const error = await callConnectJson("a.B/C", {}, { fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(errorDetailOf(error)).toEqual(plain);
    expect(productErrorCodeOf(error)).toBe(ProductErrorCode.WAIVER_LIMIT_EXCEEDED);
  });

  it.each([
    ["a ConnectError without details", new ConnectError("m", Code.Internal)],
    ["an RpcError without details", new RpcError("internal", "m")],
    ["another error", new Error("m")],
    ["a detail of another type", new RpcError("internal", "m", [{ type: "x.Y", value: bytes }])],
  ])("finds nothing in %s", (_name, error) => {
    expect(errorDetailOf(error)).toBeUndefined();
    expect(productErrorCodeOf(error)).toBe(ProductErrorCode.UNSPECIFIED);
  });
});

describe("fieldErrorsOf", () => {
  const error = new RpcError("invalid_argument", "m", [
    { type: "palisade.common.v1.ErrorDetail", value: bytes },
  ]);

  it("puts each violation beside its field, an indexed one beside its list", () => {
    expect(fieldErrorsOf(error, ["scopes", "parameters.port"])).toEqual({
      fields: { "parameters.port": "must be an integer", scopes: "ou-x is not in this tenant." },
      rest: [],
    });
  });

  it("leaves violations of fields the form does not show for the dialog", () => {
    expect(fieldErrorsOf(error, ["name"])).toEqual({
      fields: {},
      rest: ["parameters.port: must be an integer", "scopes[1]: ou-x is not in this tenant."],
    });
  });

  it("says nothing when the error names no fields", () => {
    expect(fieldErrorsOf(new RpcError("invalid_argument", "name: required."), ["name"])).toBeUndefined();
  });
});
