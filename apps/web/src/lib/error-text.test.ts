import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { describeError, errorText } from "./error-text";
import { RpcError } from "./rpc-error";

class SearchError extends Error {}

describe("describeError", () => {
  it.each([
    [
      "a server error",
      new ConnectError("Waiver limit exceeded", Code.ResourceExhausted),
      "Operation Failed",
      "Waiver limit exceeded",
    ],
    [
      "a server error without text",
      new ConnectError("", Code.Internal),
      "Operation Failed",
      "An unexpected error occurred",
    ],
    [
      "an error from the public page's client",
      new RpcError("unimplemented", "Not implemented"),
      "Operation Failed",
      "Not implemented",
    ],
    ["a local error", new Error("Cannot read the file"), "Unexpected Error", "Cannot read the file"],
    ["an empty local error", new Error(""), "Unexpected Error", "An unexpected error occurred"],
    ["a thrown value", { weird: true }, "Unexpected Error", "An unexpected error occurred"],
  ])("%s", (_name, error, title, message) => {
    expect(describeError(error)).toEqual({ title, message });
  });
});

describe("errorText of rejected search parameters", () => {
  it.each([
    [[{ message: "Invalid path format", path: ["redirect", "path"] }], "Invalid path format"],
    [
      [
        { message: "Invalid input: expected string, received undefined", path: ["policyId"] },
        { message: "Invalid option", path: [{ key: "eventType" }] },
      ],
      "policyId: Invalid input: expected string, received undefined; eventType: Invalid option",
    ],
  ])("%j -> %s", (issues, text) => {
    expect(errorText(new SearchError("[json]", { cause: { issues } }))).toBe(text);
  });
});
