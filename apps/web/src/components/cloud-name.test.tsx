// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { cloudDisplayName, scopeNamesOf } from "@/lib/scope-names";
import { CloudName } from "./cloud-name";

const hierarchy = [
  {
    name: "Root",
    externalId: "r-n8k2",
    children: [
      {
        name: "Workloads-Prod",
        externalId: "ou-n8k2-n6m9qsh8",
        children: [{ name: "payments-prod", externalId: "917343093631", children: [] }],
      },
    ],
  },
  {
    name: "Landing zones",
    externalId: "/providers/Microsoft.Management/managementGroups/landing-zones",
    children: [],
  },
];

describe("the display of a cloud object", () => {
  afterEach(cleanup);

  it.each([
    ["ou-n8k2-n6m9qsh8", "Workloads-Prod"],
    ["917343093631", "payments-prod"],
    ["/providers/microsoft.management/managementgroups/LANDING-ZONES", "Landing zones"],
  ])("%s reads as %s, the id on hover", (id, name) => {
    const names = scopeNamesOf(hierarchy);
    render(<CloudName name={names.get(id.toLowerCase())} id={id} />);
    const shown = screen.getByText(name);
    expect(shown.getAttribute("title")).toBe(id);
    expect(shown.getAttribute("data-id")).toBe(id);
  });

  it("a policy by its catalogue title, its slug on hover", () => {
    render(
      <CloudName
        name="Protect the S3 account's public access block"
        id="protect-s3-account-public-access-block"
      />,
    );
    expect(screen.getByText("Protect the S3 account's public access block").getAttribute("title")).toBe(
      "protect-s3-account-public-access-block",
    );
  });

  it("copying the name copies the id with it", () => {
    render(<CloudName name="payments-prod" id="917343093631" />);
    let copied = "";
    fireEvent.copy(screen.getByText("payments-prod"), {
      clipboardData: { setData: (_type: string, text: string) => (copied = text) },
    });
    expect(copied).toBe("payments-prod (917343093631)");
  });

  it("without a name, the id is all there is: no hover repeating it", () => {
    expect(cloudDisplayName("  ", "917343093631")).toEqual({ text: "917343093631", id: "917343093631" });
    render(<CloudName id="917343093631" />);
    expect(screen.getByText("917343093631").getAttribute("title")).toBeNull();
  });
});
