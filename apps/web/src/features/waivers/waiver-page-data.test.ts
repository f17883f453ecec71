// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  readWaiverPageData,
  userNameOf,
  type WaiverPageData,
  waiverPageDataScript,
} from "./waiver-page-data";

function documentWith(body: string): Document {
  const doc = document.implementation.createHTMLDocument("page");
  doc.body.innerHTML = body;
  return doc;
}

describe("the data a server-rendered waiver page carries", () => {
  const data: WaiverPageData = {
    userName: "Dana",
    bundle: { key: "ABCDEFG", feedbackMessage: "Ask first </script><script>alert(1)</script> <!-- x" },
  };

  it("cannot end its own element, whatever the policy's text says", () => {
    const script = waiverPageDataScript(data);
    expect(script.match(/</g)?.length).toBe(2);
    const doc = documentWith(`<div id="root"></div>${script}<p id="after">after</p>`);
    expect(doc.querySelectorAll("script")).toHaveLength(1);
    expect(doc.getElementById("after")?.textContent).toBe("after");
    expect(readWaiverPageData(doc)).toEqual(data);
  });

  it("is absent from a page the browser renders alone, and unreadable data counts as absent", () => {
    expect(readWaiverPageData(documentWith('<div id="root"></div>'))).toBeNull();
    expect(
      readWaiverPageData(
        documentWith('<script type="application/json" id="waiver-page-data">{"user</script>'),
      ),
    ).toBeNull();
    expect(
      readWaiverPageData(documentWith('<script type="application/json" id="waiver-page-data">[1]</script>')),
    ).toBeNull();
  });

  it("greets by name, by address without one, and a visitor without a session not at all", () => {
    const session = (name: string) => ({
      user: { id: "u1", email: "dana@example.com", name },
      session: { id: "s1", expiresAt: "2026-12-01T00:00:00Z" },
    });
    expect(userNameOf(session("Dana Scully"))).toBe("Dana Scully");
    expect(userNameOf(session(""))).toBe("dana@example.com");
    expect(userNameOf(null)).toBeNull();
  });
});
