import { useEffect, useRef, useState } from "react";
import { clearDraft, readDraft, saveDraft } from "./form-draft";
import { onSignedOut } from "./transport";

/**
 * Keeps a form's unsaved input across the sign-in that follows an ended session. The page calls
 * `keep` with its input on every render; when the session ends the input is saved under `key`,
 * and the next time the page opens `restored` hands it back once (the draft is then removed).
 * `discard` removes it once the form has been sent.
 */
export function useFormDraft<T>(key: string, parse: (value: unknown) => T | null) {
  const [restored] = useState(() => readDraft(key, parse));
  const latest = useRef<{ values: T } | null>(null);

  useEffect(() => {
    if (restored) clearDraft(key);
  }, [key, restored]);

  useEffect(
    () =>
      onSignedOut(() => {
        if (latest.current) saveDraft(key, latest.current.values);
      }),
    [key],
  );

  return {
    restored,
    keep(values: T) {
      latest.current = { values };
    },
    discard() {
      latest.current = null;
      clearDraft(key);
    },
  };
}
