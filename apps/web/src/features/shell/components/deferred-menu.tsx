import {
  type ComponentProps,
  type ComponentType,
  cloneElement,
  type ReactElement,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from "react";
import { useAfterFirstPaint } from "@/lib/after-first-paint";
import { preloadableLazy } from "@/lib/preloadable-lazy";

type ButtonElement = ReactElement<ComponentProps<"button">>;

/** What a deferred menu's code receives besides its own properties. */
export interface DeferredMenuProps {
  /** The menu button, for the menu's trigger to draw. */
  trigger: ButtonElement;
  /** The button was pressed before the menu's code had arrived: the menu opens at once. */
  defaultOpen: boolean;
  /** The button had the focus when the menu's code arrived: the menu's trigger takes it over. */
  focusTrigger: boolean;
}

/** Keys that open a menu from its button, as Radix's dropdown menu trigger has them. */
const OPEN_KEYS = new Set(["Enter", " ", "ArrowDown"]);

/**
 * The ref for a deferred menu's trigger, which takes the focus on mount when the button it
 * replaces had it (see DeferredMenuProps.focusTrigger).
 */
export function useTriggerFocus(focusTrigger: boolean): RefObject<HTMLButtonElement | null> {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusTrigger) ref.current?.focus();
  }, [focusTrigger]);
  return ref;
}

/**
 * A menu button whose menu (Radix's dropdown menu, its positioning and the menu's items) is code
 * loaded once the page is on screen, so that a page's first paint neither loads nor renders it.
 * Until then the button is drawn alone, as the menu's trigger draws it (closed, announcing its
 * menu); pressed before the code has arrived, it opens the menu as soon as it has.
 */
export function deferredMenu<P extends object>(load: () => Promise<ComponentType<P & DeferredMenuProps>>) {
  const Menu = preloadableLazy(load);
  return function DeferredMenu(props: P & { trigger: ButtonElement }) {
    const painted = useAfterFirstPaint();
    const [requested, setRequested] = useState(false);
    // Each press before the code has arrived asks for it again, should an earlier load have failed.
    const [presses, setPresses] = useState(0);
    const [loaded, setLoaded] = useState<{ focus: boolean } | null>(null);
    const button = useRef<HTMLButtonElement>(null);
    useEffect(() => {
      if (!painted && !requested) return;
      let current = true;
      void presses;
      Menu.preload().then(
        () => {
          if (current)
            setLoaded({ focus: button.current !== null && button.current === document.activeElement });
        },
        () => {
          // Tried again when the button is next pressed.
        },
      );
      return () => {
        current = false;
      };
    }, [painted, requested, presses]);
    if (loaded) return <Menu {...props} defaultOpen={requested} focusTrigger={loaded.focus} />;
    const request = () => {
      setRequested(true);
      setPresses((count) => count + 1);
    };
    return cloneElement(props.trigger, {
      ref: button,
      "aria-haspopup": "menu",
      "aria-expanded": false,
      onPointerDown: (event) => {
        if (event.button === 0 && !event.ctrlKey) request();
      },
      onKeyDown: (event) => {
        if (!OPEN_KEYS.has(event.key)) return;
        event.preventDefault();
        request();
      },
    });
  };
}
