import { useState } from "react";

/**
 * True from the first render in which `value` is true, and from then on. For parts mounted only
 * once first needed, then kept, so that closing them still plays their closing animation.
 */
export function useLatch(value: boolean): boolean {
  const [latched, setLatched] = useState(value);
  if (value && !latched) setLatched(true);
  return latched || value;
}
