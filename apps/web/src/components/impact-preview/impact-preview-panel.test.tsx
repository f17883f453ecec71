import { create } from "@bufbuild/protobuf";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  ImpactPreviewSchema,
  ImpactPreviewStatus,
} from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ImpactPreviewResult } from "./impact-preview-panel";

const finished = (fields: Parameters<typeof create<typeof ImpactPreviewSchema>>[1]) =>
  renderToStaticMarkup(
    <ImpactPreviewResult
      preview={create(ImpactPreviewSchema, {
        status: ImpactPreviewStatus.SUCCEEDED,
        provider: CloudProvider.AWS,
        periodDays: 30,
        recordsEvaluated: 120,
        ...fields,
      })}
    />,
  );

describe("a finished impact preview", () => {
  it("says how many requests it could not evaluate, and of which actions", () => {
    const html = finished({
      deniedCount: 0,
      notEvaluableCount: 7,
      topNotEvaluable: [{ value: "ec2:EnableSerialConsoleAccess", count: 7 }],
    });
    expect(html).toContain("No action would have been denied");
    expect(html).toMatch(
      /Not evaluable: 7<\/strong> requests&#x27; records do not tell what the guardrail reads/,
    );
    expect(html).toContain("ec2:EnableSerialConsoleAccess");
  });

  it("says nothing of evaluation when every request could be evaluated", () => {
    const html = finished({ deniedCount: 2, distinctPrincipals: 1 });
    expect(html).toContain("2 actions by 1 principal");
    expect(html).not.toContain("Not evaluable");
  });
});
