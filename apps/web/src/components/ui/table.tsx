import { type ComponentProps, type RefObject, useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils";

/** Whether the frame hides columns past its right edge, followed as it resizes and scrolls. */
function useHiddenColumns(frame: RefObject<HTMLDivElement | null>): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const check = () => setHidden(element.scrollWidth - element.clientWidth - element.scrollLeft > 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener("scroll", check, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", check);
    };
  }, [frame]);
  return hidden;
}

/**
 * `stackOnPhone`: below 768 px each row becomes a card and each cell a line under its column's
 * name (TableCell's `label`), so every column and row action stays reachable on a phone. Wider,
 * a table that does not fit scrolls sideways inside its card, and says so while columns are
 * hidden: never silently.
 */
export function Table({
  className,
  stackOnPhone = false,
  ...props
}: ComponentProps<"table"> & { stackOnPhone?: boolean }) {
  const frame = useRef<HTMLDivElement>(null);
  const hidden = useHiddenColumns(frame);
  return (
    // Sized by its container, never by the table: a wide table scrolls in its frame instead of
    // widening the card and the page.
    <div className={cn("w-full [contain:inline-size]", stackOnPhone && "table-stack")}>
      {/* Positioned, so what is placed absolutely in a cell (screen-reader-only headers) is clipped with it. */}
      <div ref={frame} className="relative w-full overflow-x-auto">
        <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
      </div>
      {hidden && (
        <p className="pt-1 text-right text-xs text-muted-foreground" data-testid="table-scroll-cue">
          More columns: scroll sideways →
        </p>
      )}
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("border-b transition-colors hover:bg-muted/50", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      className={cn(
        "h-10 px-3 text-left align-middle text-xs font-medium tracking-wide text-muted-foreground uppercase",
        className,
      )}
      {...props}
    />
  );
}

/** `label`: the column's name, shown above the cell when its table is stacked on a phone. */
export function TableCell({ className, label, ...props }: ComponentProps<"td"> & { label?: string }) {
  return <td className={cn("p-3 align-middle", className)} data-label={label} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<"caption">) {
  return <caption className={cn("mt-4 text-sm text-muted-foreground", className)} {...props} />;
}
