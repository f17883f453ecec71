import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WaiverScopePicker } from "./waiver-scope-picker";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
const render = (wholeAccount: boolean, value = "") =>
  text(
    renderToStaticMarkup(
      <WaiverScopePicker
        policyKey=""
        hint={null}
        value={value}
        onChange={() => {}}
        wholeAccount={wholeAccount}
      />,
    ),
  );

describe("the /req scope picker of a guardrail EC2 enforces itself (declarative policy)", () => {
  it("says before submitting that the waiver exempts the whole account, and offers no 'everywhere'", () => {
    const shown = render(true);
    expect(shown).toContain("This guardrail is enforced by EC2 itself: a waiver exempts the whole account");
    expect(shown).toContain("until it expires");
    expect(shown).toContain("Choose the account");
    expect(shown).not.toContain("Everywhere this policy applies");
    expect(render(true, "111122223333")).toContain("exempts the whole account 111122223333 until it expires");
  });

  it("keeps 'everywhere' and says nothing of whole accounts for other guardrails", () => {
    const shown = render(false);
    expect(shown).toContain("Everywhere this policy applies");
    expect(shown).not.toContain("enforced by EC2 itself");
  });
});
