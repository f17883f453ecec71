import type { ComponentProps } from "react";
import { useIsClient } from "@/lib/use-is-client";
import { cn } from "@/lib/utils";

/**
 * A native range input: keyboard, touch and screen-reader support come from the browser at no
 * bundle cost, which matters on the public waiver page.
 */
export function Slider({
  className,
  value,
  min = 0,
  max = 100,
  onValueChange,
  style,
  ...props
}: Omit<ComponentProps<"input">, "type" | "value" | "onChange" | "min" | "max"> & {
  value: number;
  min?: number;
  max?: number;
  onValueChange: (value: number) => void;
}) {
  const filled = max > min ? ((value - min) / (max - min)) * 100 : 0;
  // The filled part of the track is drawn once the browser runs the page: a style attribute in a
  // server-rendered page's HTML is refused by the Content-Security-Policy.
  const client = useIsClient();
  return (
    <input
      type="range"
      min={min}
      max={max}
      value={value}
      onChange={(event) => onValueChange(Number(event.target.value))}
      className={cn(
        "h-1.5 w-full cursor-pointer appearance-none rounded-full bg-muted accent-primary focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50",
        "[&::-webkit-slider-thumb]:size-4 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:border-2 [&::-webkit-slider-thumb]:border-primary [&::-webkit-slider-thumb]:bg-card [&::-webkit-slider-thumb]:shadow",
        "[&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-2 [&::-moz-range-thumb]:border-primary [&::-moz-range-thumb]:bg-card",
        className,
      )}
      style={
        client
          ? {
              background: `linear-gradient(to right, var(--color-primary) ${filled}%, var(--color-muted) ${filled}%)`,
              ...style,
            }
          : style
      }
      {...props}
    />
  );
}
