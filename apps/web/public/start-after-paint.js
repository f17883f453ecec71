// A page the server rendered (see the server's http/static-web.ts) starts its code once its first
// frame is on screen: evaluating the code as soon as it arrives would hold that frame back, most
// on a slow machine. The page's entry is named in this script's address and is fetched beside it
// (a modulepreload in the page's head).
const entry = new URL(import.meta.url).searchParams.get("entry") ?? "";

// The rendered page does nothing of its own until its code has taken it over: a button pressed does
// nothing, a field typed in holds text the page does not know of. What the visitor does before
// then is kept, in the order first done, for the code to do again once it has
// (src/lib/input-before-takeover.tsx): each button pressed, each field typed in. (A rendered
// form's submit button is disabled until its form is filled in, which takes the page's code.) The
// code takes it as it starts taking the page over, which ends the keeping.
const done = [];
const keep = (kind, element) => {
  if (!done.some((entry) => entry.element === element)) done.push({ kind, element });
};
const listeners = {
  click: (event) => {
    const button = event.target instanceof Element ? event.target.closest("button") : null;
    // A form's submit button keeps the browser's own behaviour.
    if (button && !button.disabled && !(button.form && button.type === "submit")) keep("press", button);
  },
  input: (event) => {
    const field = event.target;
    const typed =
      field instanceof HTMLTextAreaElement ||
      (field instanceof HTMLInputElement && !["checkbox", "radio", "file"].includes(field.type));
    if (typed) keep("type", field);
  },
};
for (const [type, listener] of Object.entries(listeners)) document.addEventListener(type, listener, true);
window.takeInputBeforeTakeover = () => {
  for (const [type, listener] of Object.entries(listeners))
    document.removeEventListener(type, listener, true);
  return done.splice(0);
};

// Only a built entry of this app: nothing else may be started through this script.
if (/^\/assets\/[\w.-]+\.js$/.test(entry)) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    import(entry).catch((error) => console.error("The page's code did not load", error));
  };
  if (document.visibilityState === "hidden") {
    // A hidden page draws no frame: nothing to wait for.
    start();
  } else {
    // A frame is drawn after its animation callbacks; the task queued from one runs once it is.
    requestAnimationFrame(() => setTimeout(start, 0));
    // A browser that holds back frames (a page hidden while it loads) does not hold the code back long.
    setTimeout(start, 1000);
  }
}
