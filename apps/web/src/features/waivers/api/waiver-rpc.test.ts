import { afterEach, describe, expect, it, vi } from "vitest";
import { createWaiver } from "./waiver-rpc";

describe("createWaiver", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends the form's idempotency key with the request", async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json({ waiver: { policyKey: "ABCDEFG" } }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await createWaiver({ key: "ABCDEFG", durationSeconds: 7_200n, comment: "why", idempotencyKey: "k-1" });
    const [input, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(input)).toBe("/palisade.waiver.v1.WaiverService/Create");
    const headers = init?.headers as Record<string, string>;
    expect(headers["Idempotency-Key"]).toBe("k-1");
    expect(headers["Content-Type"]).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual({
      key: "ABCDEFG",
      duration: "7200",
      comment: "why",
      createSource: "WAIVER_CREATE_SOURCE_FORM",
    });
  });
});
