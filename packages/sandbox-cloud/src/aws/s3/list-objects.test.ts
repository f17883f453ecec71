import { describe, expect, it } from "vitest";
import { listObjectsV2 } from "./list-objects";
import { openS3Objects } from "./s3-objects";

// https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html
const objects = openS3Objects();
for (const key of ["a/1", "a/2", "a/b/3", "b/4", "c", "d/5", "d/6"]) {
  objects.put("bkt", key, Buffer.from(key), "text/plain", new Date("2026-01-01T00:00:00Z"));
}

function list(params: Record<string, string>) {
  const xml = String(listObjectsV2(objects, "bkt", new URLSearchParams(params)).body);
  const all = (tag: string) =>
    [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, "g"))].map((m) => m[1]!);
  return {
    keys: all("Key"),
    prefixes: [...xml.matchAll(/<CommonPrefixes><Prefix>([^<]*)<\/Prefix><\/CommonPrefixes>/g)].map(
      (m) => m[1]!,
    ),
    keyCount: Number(all("KeyCount")[0]),
    truncated: all("IsTruncated")[0] === "true",
    token: all("NextContinuationToken")[0],
  };
}

describe("ListObjectsV2", () => {
  it("rolls keys up to the delimiter into common prefixes, counted with keys against max-keys", () => {
    const pages: { keys: string[]; prefixes: string[] }[] = [];
    let token: string | undefined;
    do {
      const page = list({
        "list-type": "2",
        delimiter: "/",
        "max-keys": "2",
        ...(token ? { "continuation-token": token } : {}),
      });
      expect(page.keyCount).toBe(page.keys.length + page.prefixes.length);
      pages.push({ keys: page.keys, prefixes: page.prefixes });
      token = page.token;
      expect(page.truncated).toBe(token !== undefined);
    } while (token);
    expect(pages).toEqual([
      { keys: [], prefixes: ["a/", "b/"] },
      { keys: ["c"], prefixes: ["d/"] },
    ]);
  });

  it("lists under a prefix after start-after, and refuses a token it did not give", () => {
    expect(list({ prefix: "a/", "start-after": "a/1" }).keys).toEqual(["a/2", "a/b/3"]);
    expect(list({ prefix: "a/", delimiter: "/" })).toMatchObject({
      keys: ["a/1", "a/2"],
      prefixes: ["a/b/"],
    });
    expect(() => list({ "continuation-token": "bogus" })).toThrow(
      expect.objectContaining({ code: "InvalidArgument" }),
    );
    expect(() => list({ "max-keys": "-1" })).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
  });
});
