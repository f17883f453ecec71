// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { lazy, type ReactElement, Suspense, useEffect, useState } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ReplayInputOnceTakenOver,
  takeInputBeforeTakeover,
  takeOverServerPage,
} from "./input-before-takeover";

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

  let loads = 0;
  beforeEach(async () => {
    // The loader as the server's page runs it (public/start-after-paint.js), with no entry to start;
    // loaded anew for each test, as each page loads it.
    const loader = `../../public/start-after-paint.js?page=${++loads}`;
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

  it("presses a button in a part React takes over later (its code still on its way) once it has", async () => {
    function Later() {
      const [opened, setOpened] = useState(false);
      return (
        <div>
          <button type="button" onClick={() => setOpened(true)}>
            Open later
          </button>
          {opened && <p>Opened later</p>}
        </div>
      );
    }
    const split = (later: ReactElement) => (
      <div>
        <Suspense fallback={null}>{later}</Suspense>
      </div>
    );
    container = document.createElement("div");
    container.innerHTML = renderToString(split(<Later />));
    document.body.append(container);
    screen.getByRole("button", { name: "Open later" }).click();

    // In the browser that part's code is still on its way when the rest of the page is taken over.
    let arrive = (_: { default: typeof Later }) => {};
    const LaterCode = lazy(() => new Promise<{ default: typeof Later }>((resolve) => (arrive = resolve)));
    await act(async () => {
      root = takeOverServerPage(container, split(<LaterCode />), { asRendered: true, name: "The page" });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText("Opened later")).toBeNull();
    await act(async () => arrive({ default: Later }));
    await waitFor(() => expect(screen.getByText("Opened later")).toBeTruthy());
  });

  it("presses the button that took the pressed one's place once the page was taken over", async () => {
    // As a menu button does whose menu's code arrives: React draws a new button in its place.
    function Replaced() {
      const [drawn, setDrawn] = useState(0);
      const [opened, setOpened] = useState(false);
      useEffect(() => setDrawn(1), []);
      return (
        <div>
          <button key={drawn} type="button" onClick={() => setOpened(true)}>
            Open menu
          </button>
          {opened && <p>Menu open</p>}
        </div>
      );
    }
    container = document.createElement("div");
    container.innerHTML = renderToString(<Replaced />);
    document.body.append(container);
    const pressed = screen.getByRole("button", { name: "Open menu" });
    pressed.click();
    await act(async () => {
      root = takeOverServerPage(container, <Replaced />, { asRendered: true, name: "The page" });
    });
    await waitFor(() => expect(screen.getByText("Menu open")).toBeTruthy());
    expect(pressed.isConnected).toBe(false);
  });

  it("counts text typed and a button pressed on a page rendered anew in place of the server's, in the same fields and buttons", async () => {
    serverPage();
    const field = screen.getByLabelText("Reason") as HTMLTextAreaElement;
    field.value = "typed early";
    field.dispatchEvent(new Event("input", { bubbles: true }));
    screen.getByRole("button", { name: "Open" }).click();
    await act(async () => {
      root = takeOverServerPage(container, page(), { asRendered: false, name: "The page" });
    });
    await waitFor(() => expect(screen.getByText("11/220")).toBeTruthy());
    expect(screen.getByText("Opened")).toBeTruthy();
    expect(field.isConnected).toBe(false);
    expect((screen.getByLabelText("Reason") as HTMLTextAreaElement).value).toBe("typed early");
  });

  it("keeps nothing once taken: React answers the visitor from then on", async () => {
    serverPage();
    expect(takeInputBeforeTakeover()).toEqual([]);
    screen.getByRole("button", { name: "Open" }).click();
    expect(takeInputBeforeTakeover()).toEqual([]);
  });
});
