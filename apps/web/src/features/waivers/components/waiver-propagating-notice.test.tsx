import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { waiverOutcomeOf } from "../waiver-outcome";
import { WaiverPropagatingNotice } from "./waiver-propagating-notice";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");

describe("the /req outcome of a waiver Azure does not honour yet", () => {
  it("says when it becomes active instead of 'you can proceed now'", () => {
    const outcome = waiverOutcomeOf(
      {
        status: "WAIVER_STATUS_PROPAGATING",
        propagationEndsAt: new Date(Date.now() + 9 * 60_000 + 10_000).toISOString(),
        expiresAt: "2026-01-02T03:04:00Z",
        scope: "Subscription 1111",
      },
      "Acme",
      "UTC",
    );
    expect(outcome.kind).toBe("propagating");
    if (outcome.kind !== "propagating") return;
    const shown = text(
      renderToStaticMarkup(<WaiverPropagatingNotice outcome={outcome} scopeName="corp-prod" />),
    );
    expect(shown).toContain("Waiver approved: active in about 10 minutes");
    expect(shown).toContain("until then the action is still blocked");
    expect(shown).toContain("Applies to corp-prod.");
    expect(shown).not.toContain("proceed now");
  });

  it("still says 'active in' when the end is not known", () => {
    const outcome = waiverOutcomeOf({ status: "WAIVER_STATUS_PROPAGATING" }, "Acme");
    if (outcome.kind !== "propagating") throw new Error(`not propagating: ${outcome.kind}`);
    expect(text(renderToStaticMarkup(<WaiverPropagatingNotice outcome={outcome} />))).toContain(
      "active in a few minutes",
    );
  });
});
