import { useLayoutEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import { MarkdownText } from "./markdown-text";
import { clampLines } from "./text-block-lines";

/**
 * The block's height at each number of lines (index), at a line height of 1.5rem (`leading-6`).
 * Classes rather than an inline style: the waiver page is rendered on the server, and the
 * Content-Security-Policy refuses style attributes in a page's HTML.
 */
const maxHeightOfLines = [
  "",
  "max-h-6",
  "max-h-12",
  "max-h-18",
  "max-h-24",
  "max-h-30",
  "max-h-36",
  "max-h-42",
  "max-h-48",
  "max-h-54",
  "max-h-60",
  "max-h-66",
  "max-h-72",
] as const;

/** Markdown or plain text, clamped to a number of lines with a toggle when it overflows. */
export function TextBlock({
  children,
  format = "markdown",
  lines,
  className,
}: {
  children: string;
  format?: "markdown" | "plain";
  lines?: number;
  className?: string;
}) {
  const clamp = clampLines(lines);
  const contentRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const element = contentRef.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div className={cn("text-sm", className)}>
      <div
        ref={contentRef}
        className={cn(
          "overflow-hidden break-words leading-6 [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.85em] [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p+p]:mt-3 [&_ul]:list-disc",
          format === "plain" && "whitespace-pre-line",
          !expanded && maxHeightOfLines[clamp],
        )}
      >
        {format === "markdown" ? <MarkdownText>{children}</MarkdownText> : children}
      </div>
      {(overflows || expanded) && (
        <button
          type="button"
          className="mt-1 text-sm font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? "Show less" : "Read more..."}
        </button>
      )}
    </div>
  );
}
