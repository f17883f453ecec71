// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OWN_REQUEST_NOTE } from "../waiver-row";
import { WaiverRowActions } from "./waiver-row-actions";

const subject = {
  requesterName: "Dev",
  policyKey: "ABCDEFG",
  targetName: "payments-prod",
  durationSeconds: 8n * 3600n,
  active: false,
};
const idle = { update: false, cancel: false };
const decisions = { approve: true, reject: true, cancel: true };

describe("WaiverRowActions", () => {
  afterEach(cleanup);

  it.each([
    ["Approve", "approve", /Access is granted: ABCDEFG stops denying .* on payments-prod for 8 h/],
    ["Reject", "reject", /refused for good: ABCDEFG keeps denying .* on payments-prod/],
    ["Cancel waiver", "cancel", /ABCDEFG on payments-prod ends now/],
  ] as const)(
    "%s asks first, naming what will happen, and acts only once confirmed",
    (label, decision, effect) => {
      const onDecide = vi.fn();
      render(<WaiverRowActions actions={decisions} subject={subject} busy={idle} onDecide={onDecide} />);
      fireEvent.click(screen.getByRole("button", { name: label }));
      const dialog = screen.getByRole("alertdialog");
      expect(dialog.textContent).toMatch(effect);
      expect(onDecide).not.toHaveBeenCalled();

      fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
      expect(screen.queryByRole("alertdialog")).toBeNull();
      expect(onDecide).not.toHaveBeenCalled();

      fireEvent.click(screen.getByRole("button", { name: label }));
      const confirm = screen.getAllByRole("button", { name: label }).at(-1) as HTMLElement;
      fireEvent.click(confirm);
      expect(onDecide).toHaveBeenCalledExactlyOnceWith(decision);
    },
  );

  it("shows a requester no Approve or Reject on their own request, and says why", () => {
    render(
      <WaiverRowActions
        actions={{ approve: false, reject: false, cancel: true, note: OWN_REQUEST_NOTE }}
        subject={subject}
        busy={idle}
        onDecide={vi.fn()}
      />,
    );
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Reject" })).toBeNull();
    expect(screen.getByText(OWN_REQUEST_NOTE)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel waiver" })).toBeTruthy();
  });
});
