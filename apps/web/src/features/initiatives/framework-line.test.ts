import { describe, expect, it } from "vitest";
import { frameworkLine } from "./framework-line";

describe("the framework line of an initiative card", () => {
  it("is left out when the title already names the framework and its version", () => {
    expect(
      frameworkLine({
        name: "CIS AWS Foundations 3.0",
        frameworkName: "CIS AWS Foundations",
        frameworkVersion: "3.0",
      }),
    ).toBe("");
  });

  it("names the framework of an initiative titled otherwise", () => {
    expect(
      frameworkLine({ name: "Payments baseline", frameworkName: "PCI DSS", frameworkVersion: "4.0" }),
    ).toBe("PCI DSS 4.0");
  });
});
