import { create } from "@bufbuild/protobuf";
import { ManagedBySchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ManagedByCodeNote } from "./policy-bundles";

const text = (path: string, commit: string) =>
  renderToStaticMarkup(<ManagedByCodeNote managedBy={create(ManagedBySchema, { path, commit })} />).replace(
    /<[^>]+>/g,
    "",
  );

describe("ManagedByCodeNote", () => {
  it("names the file and commit a bundle was applied from, and where to change it", () => {
    expect(text("guardrails/bundles/storage.yaml", "3f2c1e0")).toBe(
      "Managed by code: guardrails/bundles/storage.yaml@3f2c1e0; change it in the repository.",
    );
  });

  it("names the file alone when the commit is unknown", () => {
    expect(text("bundles/storage.yaml", "")).toBe(
      "Managed by code: bundles/storage.yaml; change it in the repository.",
    );
  });
});
