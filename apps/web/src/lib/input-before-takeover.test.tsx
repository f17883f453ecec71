// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { Suspense, useState } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ReplayInputOnceTakenOver, takeInputBeforeTakeover } from "./input-before-takeover";

/** A form as a server-rendered page has one: a controlled field, its count, and a button that opens something. */
function Form() {
  const [reason, setReason] = useState("");
  const [opened, setOpened] = useState(false);
  return (
    <div>
      <textarea aria-label="Reason" value={reason} onChange={(event) => setReason(event.target.value)} />
      <p>{`${reason.length}/220`}</p>
      <button type="button" onClick={() => setOpened(true)}>
        Open
      </button>
      {opened && <p>Opened</p>}
    </div>
  );
}

/** The page as the server sends it: rendered, inside a suspense boundary as the router's pages are. */
const page = () => (
  <Suspense fallback={null}>
    <Form />
  </Suspense>
);

describe("input before the takeover", () => {
  let root: Root | undefined;
  let container: HTMLElement;

  beforeAll(async () => {
    // The loader as the server's page runs it (public/start-after-paint.js), with no entry to start.
    const loader = "../../public/start-after-paint.js";
    await import(/* @vite-ignore */ loader);
  });

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    cleanup();
  });

  function serverPage() {
    container = document.createElement("div");
    container.innerHTML = renderToString(page());
    document.body.append(container);
  }

  it("counts text typed and a button pressed on the server's page once React has taken it over", async () => {
    serverPage();
    const field = screen.getByLabelText("Reason") as HTMLTextAreaElement;
    // Typed and pressed while the page's code was on its way: the browser's own events, kept by the loader.
    field.value = "typed early";
    field.dispatchEvent(new Event("input", { bubbles: true }));
    screen.getByRole("button", { name: "Open" }).click();
    expect(screen.getByText("0/220")).toBeTruthy();

    const input = takeInputBeforeTakeover();
    expect(input.map((entry) => entry.kind)).toEqual(["type", "press"]);
    await act(async () => {
      root = hydrateRoot(
        container,
        <>
          {page()}
          <ReplayInputOnceTakenOver input={input} />
        </>,
      );
    });
    await waitFor(() => expect(screen.getByText("11/220")).toBeTruthy());
    expect(screen.getByText("Opened")).toBeTruthy();
    expect(field.value).toBe("typed early");
    expect(field.isConnected).toBe(true);
  });

  it("keeps nothing once taken: React answers the visitor from then on", async () => {
    serverPage();
    expect(takeInputBeforeTakeover()).toEqual([]);
    screen.getByRole("button", { name: "Open" }).click();
    expect(takeInputBeforeTakeover()).toEqual([]);
  });
});
