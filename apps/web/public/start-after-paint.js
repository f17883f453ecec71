// A page the server rendered (see the server's http/static-web.ts) starts its code once its first
// frame is on screen: evaluating the code as soon as it arrives would hold that frame back, most
// on a slow machine. The page's entry is named in this script's address and is fetched beside it
// (a modulepreload in the page's head).
const entry = new URL(import.meta.url).searchParams.get("entry") ?? "";

// A button on the rendered page does nothing until the page's code has taken the page over. Each
// one pressed before then is kept, in the order first pressed, for the code to press again once it
// has (src/lib/presses-before-takeover.ts); a form's submit button keeps the browser's own
// behaviour. The code takes them as it starts taking the page over, which ends the keeping.
const pressed = [];
const keep = (event) => {
  const button = event.target instanceof Element ? event.target.closest("button") : null;
  if (!button || button.disabled || (button.form && button.type === "submit")) return;
  if (!pressed.includes(button)) pressed.push(button);
};
document.addEventListener("click", keep, true);
window.takePressesBeforeTakeover = () => {
  document.removeEventListener("click", keep, true);
  return pressed.splice(0);
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
