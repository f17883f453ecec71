import { type ReactNode, useEffect } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { logger } from "./logger";

/** What public/start-after-paint.js keeps: a button the visitor pressed, a field they typed in. */
type Kept =
  | { kind: "press"; element: HTMLButtonElement }
  | { kind: "type"; element: HTMLInputElement | HTMLTextAreaElement };

/** Something the visitor did on a server-rendered page before its code took the page over. */
export type InputBeforeTakeover = (
  | Extract<Kept, { kind: "press" }>
  | (Extract<Kept, { kind: "type" }> & { typed: string })
) & {
  /** Where it is on the page, to find the one in its place should React draw a new one. */
  place: Place;
};

declare global {
  interface Window {
    /** Set by public/start-after-paint.js on a page the server rendered: see takeInputBeforeTakeover. */
    takeInputBeforeTakeover?: () => Kept[];
  }
}

/**
 * What the visitor did on a server-rendered page before its code took the page over, in the order
 * first done (public/start-after-paint.js keeps it); nothing on a page the browser renders itself.
 * Taking it ends the keeping: from here on, React answers the visitor itself, taking over the part
 * used first when it has not yet.
 */
export function takeInputBeforeTakeover(): InputBeforeTakeover[] {
  // A field's text as typed: the page's first renders may set the field back to what they render.
  return (window.takeInputBeforeTakeover?.() ?? []).map((entry) => {
    const place = placeOf(entry.element);
    return entry.kind === "type" ? { ...entry, typed: entry.element.value, place } : { ...entry, place };
  });
}

/**
 * Takes over a page the server rendered into `root`: as it is when `asRendered` (React hydrates
 * it), else rendered anew in its place. Either way what the visitor did on the server's page before
 * (see takeInputBeforeTakeover) is done again once React has taken over what was used.
 */
export function takeOverServerPage(
  root: HTMLElement,
  page: ReactNode,
  { asRendered, name }: { asRendered: boolean; name: string },
): Root {
  const withInput = (
    <>
      {page}
      <ReplayInputOnceTakenOver input={takeInputBeforeTakeover()} />
    </>
  );
  if (!asRendered) {
    const anew = createRoot(root);
    anew.render(withInput);
    return anew;
  }
  return hydrateRoot(root, withInput, {
    onRecoverableError: (error) => logger.error(`${name} differed from the server's`, error),
  });
}

/** How long the replay waits for React to take over what the visitor used: that part's code may still be on its way. */
const TAKEOVER_WAIT_MS = 10_000;
const TAKEOVER_POLL_MS = 50;

/**
 * Rendered beside a page being taken over: once React has taken over what the visitor used before
 * (see takeInputBeforeTakeover), does it again, in the order first done, so that what was done
 * while the page's code was on its way counts rather than being lost. It draws nothing.
 *
 * React takes a page over part by part: a part whose code has not arrived (a lazily loaded
 * component) stays the server's until it has, and React drops a press on it meanwhile. So each
 * button or field is used again only once React has taken it over; and where React has drawn a new
 * one in its place (a menu button whose menu's code arrived, a page rendered anew), on the one now
 * in its place. The first try is a task of its own: not while React is still finishing a render, as
 * it is when it runs this component's effect.
 */
export function ReplayInputOnceTakenOver({ input }: { input: InputBeforeTakeover[] }) {
  useEffect(() => {
    const replayed = input.splice(0);
    if (replayed.length > 0) void replayInOrder(replayed);
  }, [input]);
  return null;
}

async function replayInOrder(input: InputBeforeTakeover[]) {
  for (const entry of input) {
    const element = await takenOver(entry);
    if (!element) continue;
    if (entry.kind === "press") press(element as HTMLButtonElement);
    else typeAgain(element as HTMLInputElement | HTMLTextAreaElement, entry.typed);
  }
}

/**
 * The element the entry was done on, or the one now in its place, once React has taken it over;
 * undefined when there is none within TAKEOVER_WAIT_MS.
 */
async function takenOver(entry: InputBeforeTakeover): Promise<Element | undefined> {
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  let wait = 0;
  while (Date.now() <= deadline) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    const element = entry.element.isConnected ? entry.element : inPlaceOf(entry.place);
    if (element && reactHasTakenOver(element)) return element;
    wait = TAKEOVER_POLL_MS;
  }
  return undefined;
}

/**
 * React marks each element it has taken over (hydrated, or rendered itself) with its properties,
 * under a key of its own (`__reactProps$` and a suffix); the server's elements have none. The unit
 * test of this file fails should a version of React stop doing so.
 */
function reactHasTakenOver(element: Element): boolean {
  return Object.keys(element).some((key) => key.startsWith("__reactProps$"));
}

/** Where a button or field is on the page: its kind, what it is called and which of those so called it is. */
interface Place {
  tag: string;
  name: string;
  nth: number;
}

/** What a button or field is called: its label, else its form name or id, else (a button) its text. */
function nameOf(element: Element): string {
  return (
    element.getAttribute("aria-label") ??
    element.getAttribute("name") ??
    (element.id || (element.textContent ?? "").replace(/\s+/g, " ").trim())
  );
}

/** The elements of the page of one kind and name, in the page's order. */
function namedAlike(tag: string, name: string): Element[] {
  return [...document.getElementsByTagName(tag)].filter((other) => nameOf(other) === name);
}

function placeOf(element: Element): Place {
  const tag = element.tagName;
  const name = nameOf(element);
  return { tag, name, nth: namedAlike(tag, name).indexOf(element) };
}

/** The element now at the place of one React has since removed from the page. */
function inPlaceOf({ tag, name, nth }: Place): Element | undefined {
  return nth < 0 ? undefined : namedAlike(tag, name)[nth];
}

/**
 * Presses a button as a primary pointer does, in the browser's order of events: a menu button opens
 * its menu as the pointer goes down (as Radix's triggers and the deferred menus do), a tab is
 * chosen as the mouse goes down, any other button acts on the click.
 */
function press(button: HTMLButtonElement) {
  const primary = { bubbles: true, cancelable: true, composed: true, button: 0 };
  button.dispatchEvent(
    new PointerEvent("pointerdown", { ...primary, buttons: 1, pointerType: "mouse", isPrimary: true }),
  );
  button.dispatchEvent(new MouseEvent("mousedown", { ...primary, buttons: 1 }));
  button.dispatchEvent(new PointerEvent("pointerup", { ...primary, pointerType: "mouse", isPrimary: true }));
  button.dispatchEvent(new MouseEvent("mouseup", primary));
  button.click();
}

/**
 * Tells the page of text typed into a field before it was taken over. React takes a field over
 * keeping the value it rendered, and may set the field back to it; it hears of a change only when
 * the field's value differs from the last one it knows of. So the field is set to the value React
 * rendered as React sets it, and an input event sent with nothing changed (which has React take the
 * field over first, when it has not yet); then it is set to the typed text as typing sets it (the
 * element's own setter), and an input event sent, as typing sends it.
 */
function typeAgain(field: HTMLInputElement | HTMLTextAreaElement, typed: string) {
  if (typed === field.defaultValue) return;
  field.value = field.defaultValue;
  field.dispatchEvent(new Event("input", { bubbles: true }));
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set?.call(field, typed);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}
