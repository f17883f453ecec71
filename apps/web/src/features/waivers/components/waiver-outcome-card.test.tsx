// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WaiverOutcomeCard } from "./waiver-outcome-card";

// The card's own reads of a pending waiver: none here, the answer at submit is what it shows.
vi.mock("../api/waiver-request-queries", () => ({ useOwnWaiver: () => undefined }));

const ou = {
  scope: "Organizational unit ou-n8k2-n6m9qsh8",
  scopeName: "Workloads-Prod",
  targetScope: { externalId: "ou-n8k2-n6m9qsh8" },
};

describe("WaiverOutcomeCard", () => {
  afterEach(cleanup);

  it("an active waiver: the specification's words, then status, scope by name and expiry with its zone", () => {
    render(
      <WaiverOutcomeCard
        created={{ waiver: { status: "WAIVER_STATUS_ACTIVE", expiresAt: "2026-12-04T23:39:00Z", ...ou } }}
        onAnother={vi.fn()}
      />,
    );
    expect(screen.getByRole("heading").textContent).toBe("Waiver created successfully!");
    expect(screen.getByText("You can now proceed to implement desired action")).toBeTruthy();
    const details = screen.getByTestId("waiver-details").textContent ?? "";
    expect(details).toContain("Active");
    expect(details).toContain("Workloads-Prod");
    expect(details).not.toContain("ou-n8k2");
    expect(screen.getByText("Workloads-Prod").getAttribute("title")).toBe("ou-n8k2-n6m9qsh8");
    expect(details).toMatch(/Expires.*(UTC|GMT)/);
  });

  it("a pending waiver is created but awaits approval: no word of proceeding", () => {
    render(
      <WaiverOutcomeCard
        created={{ waiver: { status: "WAIVER_STATUS_PENDING", ...ou } }}
        onAnother={vi.fn()}
      />,
    );
    expect(screen.getByRole("heading").textContent).toBe("Waiver created successfully!");
    expect(screen.queryByText("You can now proceed to implement desired action")).toBeNull();
    expect(screen.getByRole("status").textContent).toContain("It awaits approval");
    expect(screen.getByTestId("waiver-details").textContent).toContain("Pending approval");
  });

  it("a cancelled waiver reads when it was cancelled, with its zone", () => {
    render(
      <WaiverOutcomeCard
        created={{
          waiver: {
            status: "WAIVER_STATUS_CANCELLED",
            expiresAt: "2026-12-05T10:00:00Z",
            cancelledAt: "2026-12-04T09:15:00Z",
            ...ou,
          },
        }}
        onAnother={vi.fn()}
      />,
    );
    expect(screen.getByRole("heading").textContent).toBe("Waiver cancelled");
    expect(screen.getByText(/no longer applies/).textContent).toMatch(/cancelled .*2026.*0?9:15.*(UTC|GMT)/);
  });
});
