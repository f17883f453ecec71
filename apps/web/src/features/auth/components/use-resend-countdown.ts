import { useEffect, useState } from "react";

/** The server allows a few e-mails a minute; waiting this long keeps a person well inside it. */
export const RESEND_AFTER_SECONDS = 30;

/** Seconds until a new code or link may be asked for, and the function that starts the wait. */
export function useResendCountdown(): [number, () => void] {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 250);
    return () => clearTimeout(timer);
  }, [until, now]);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return [
    left,
    () => {
      const start = Date.now();
      setNow(start);
      setUntil(start + RESEND_AFTER_SECONDS * 1000);
    },
  ];
}
