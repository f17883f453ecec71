import { describe, expect, it } from "vitest";
import { errorCode, errorStatus, isNotFound, isUnreachable } from "./errors";

const named = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });

describe("isUnreachable", () => {
  it.each([
    [
      "a refused connection",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }),
      true,
    ],
    [
      "an unknown host inside an AggregateError",
      new AggregateError([Object.assign(new Error("x"), { code: "ENOTFOUND" })]),
      true,
    ],
    [
      "a wrapped cause",
      new Error("request failed", { cause: Object.assign(new Error("t"), { code: "ETIMEDOUT" }) }),
      true,
    ],
    ["an SDK timeout", named("TimeoutError"), true],
    [
      "MSAL's network error",
      new Error("network_error: See https://aka.ms/msal.js.errors#network_error"),
      true,
    ],
    ["an access denial", named("AccessDeniedException"), false],
    ["a plain error", new Error("boom"), false],
  ])("%s -> %s", (_name, error, expected) => {
    expect(isUnreachable(error)).toBe(expected);
  });
});

describe("errorCode, errorStatus and isNotFound", () => {
  it.each([
    [
      "AWS exception",
      named("PolicyNotFoundException", { $metadata: { httpStatusCode: 400 } }),
      "PolicyNotFoundException",
      400,
    ],
    [
      "ARM error",
      Object.assign(new Error("gone"), {
        name: "RestError",
        code: "PolicyAssignmentNotFound",
        statusCode: 404,
      }),
      "PolicyAssignmentNotFound",
      404,
    ],
    ["plain error", new Error("x"), "", undefined],
  ])("%s", (_name, error, code, status) => {
    expect(errorCode(error)).toBe(code);
    expect(errorStatus(error)).toBe(status);
  });

  it("treats a listed code or HTTP 404 as not found", () => {
    expect(isNotFound(named("PolicyNotFoundException"), ["PolicyNotFoundException"])).toBe(true);
    expect(isNotFound(Object.assign(new Error("x"), { statusCode: 404 }), [])).toBe(true);
    expect(isNotFound(named("AccessDeniedException"), ["PolicyNotFoundException"])).toBe(false);
  });
});
