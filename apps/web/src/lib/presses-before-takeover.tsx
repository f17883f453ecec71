import { useEffect } from "react";

declare global {
  interface Window {
    /** Set by public/start-after-paint.js on a page the server rendered: see takePressesBeforeTakeover. */
    takePressesBeforeTakeover?: () => HTMLButtonElement[];
  }
}

/**
 * The buttons of a server-rendered page pressed before its code took the page over, in the order
 * first pressed (public/start-after-paint.js keeps them); none on a page the browser renders
 * itself. Taking them ends the keeping: from here on, React answers presses itself, taking over the
 * part pressed first when it has not yet.
 */
export function takePressesBeforeTakeover(): HTMLButtonElement[] {
  return window.takePressesBeforeTakeover?.() ?? [];
}

/**
 * Rendered beside a page being taken over: once React has begun taking it over, presses again the
 * buttons pressed before (see takePressesBeforeTakeover), those still on the page, so that a press
 * made while the page's code was on its way does what it says rather than nothing. It draws nothing.
 *
 * React takes a page over part by part (each suspense boundary the server rendered later than the
 * page around it), and a press on a part not yet taken over has React take that part over at once
 * and then answer it; but not while React is still finishing a render, as it is when it runs this
 * component's effect. So the presses are made in a task of their own, after it.
 */
export function PressAgainOnceTakenOver({ buttons }: { buttons: HTMLButtonElement[] }) {
  useEffect(() => {
    const presses = buttons.splice(0);
    if (presses.length === 0) return;
    setTimeout(() => {
      for (const button of presses) if (button.isConnected) press(button);
    }, 0);
  }, [buttons]);
  return null;
}

/**
 * Presses a button as a primary pointer does, in the browser's order of events: a menu button opens
 * its menu as the pointer goes down (as Radix's triggers and the deferred menus do), a tab is
 * chosen as the mouse goes down, any other button acts on the click.
 */
function press(button: HTMLButtonElement) {
  const primary = { bubbles: true, cancelable: true, composed: true, button: 0, view: window };
  button.dispatchEvent(
    new PointerEvent("pointerdown", { ...primary, buttons: 1, pointerType: "mouse", isPrimary: true }),
  );
  button.dispatchEvent(new MouseEvent("mousedown", { ...primary, buttons: 1 }));
  button.dispatchEvent(new PointerEvent("pointerup", { ...primary, pointerType: "mouse", isPrimary: true }));
  button.dispatchEvent(new MouseEvent("mouseup", primary));
  button.click();
}
