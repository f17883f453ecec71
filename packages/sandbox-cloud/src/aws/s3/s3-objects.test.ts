import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openS3Objects } from "./s3-objects";

const dir = mkdtempSync(join(tmpdir(), "palisade-s3-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("keeps objects across a restart, in UTF-8 binary key order, with the body's MD5 as ETag", () => {
  const at = new Date("2026-05-01T10:00:00Z");
  const first = openS3Objects(dir);
  first.put("bkt", "b/é", Buffer.from("two"), "text/plain", at);
  first.put("bkt", "b/z", Buffer.from("one"), "text/plain", at);
  first.put("bkt", "a", Buffer.from("old"), "text/plain", at);
  first.put("bkt", "a", Buffer.from("new"), "application/json", at);

  const reopened = openS3Objects(dir);
  expect(reopened.keys("bkt")).toEqual(["a", "b/z", "b/é"]);
  expect(reopened.body("bkt", "a")?.toString()).toBe("new");
  expect(reopened.head("bkt", "a")).toEqual({
    key: "a",
    size: 3,
    etag: '"22af645d1859cb5ca6da0c484f1f37ea"',
    lastModified: at.toISOString(),
    contentType: "application/json",
  });
  expect(reopened.head("bkt", "missing")).toBeUndefined();
  expect(reopened.keys("other")).toEqual([]);
});
