import { useEffect } from "react";

/** What public/start-after-paint.js keeps: a button the visitor pressed, a field they typed in. */
type Kept =
  | { kind: "press"; element: HTMLButtonElement }
  | { kind: "type"; element: HTMLInputElement | HTMLTextAreaElement };

/** Something the visitor did on a server-rendered page before its code took the page over. */
export type InputBeforeTakeover =
  | Extract<Kept, { kind: "press" }>
  | (Extract<Kept, { kind: "type" }> & { typed: string });

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
  return (window.takeInputBeforeTakeover?.() ?? []).map((entry) =>
    entry.kind === "type" ? { ...entry, typed: entry.element.value } : entry,
  );
}

/**
 * Rendered beside a page being taken over: once React has begun taking it over, does again what the
 * visitor did before (see takeInputBeforeTakeover), on what is still on the page, so that what was
 * done while the page's code was on its way counts rather than being lost. It draws nothing.
 *
 * React takes a page over part by part (each suspense boundary the server rendered later than the
 * page around it), and input on a part not yet taken over has React take that part over at once
 * and then answer it; but not while React is still finishing a render, as it is when it runs this
 * component's effect. So the input is replayed in a task of its own, after it.
 */
export function ReplayInputOnceTakenOver({ input }: { input: InputBeforeTakeover[] }) {
  useEffect(() => {
    const replayed = input.splice(0);
    if (replayed.length === 0) return;
    setTimeout(() => {
      for (const entry of replayed) {
        if (!entry.element.isConnected) continue;
        if (entry.kind === "press") press(entry.element);
        else typeAgain(entry.element, entry.typed);
      }
    }, 0);
  }, [input]);
  return null;
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
