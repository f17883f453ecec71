import { type ReactNode, useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils";

export function scrollProgress(scrollTop: number, scrollHeight: number, clientHeight: number): number {
  const range = scrollHeight - clientHeight;
  if (range <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((scrollTop / range) * 100)));
}

/** A scroll area with a bar that shows how far it has been scrolled. */
export function ScrollIndicator({ children, className }: { children: ReactNode; className?: string }) {
  const areaRef = useRef<HTMLElement>(null);
  const [progress, setProgress] = useState(0);

  useEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    const update = () => setProgress(scrollProgress(area.scrollTop, area.scrollHeight, area.clientHeight));
    update();
    area.addEventListener("scroll", update, { passive: true });
    return () => area.removeEventListener("scroll", update);
  }, []);

  return (
    <div className={cn("overflow-hidden rounded-xl border bg-card", className)}>
      <div
        role="progressbar"
        aria-label="Scrolled"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-1.5 w-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width] duration-75" style={{ width: `${progress}%` }} />
      </div>
      <section
        ref={areaRef}
        aria-label="Scrollable content"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area must take focus so keyboard users can scroll it
        tabIndex={0}
        className="h-96 overflow-y-auto p-6 focus-visible:outline-2 focus-visible:outline-ring"
      >
        {children}
      </section>
    </div>
  );
}
