import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * `stackOnPhone`: below 768 px each row becomes a card and each cell a line under its column's
 * name (TableCell's `label`), so every column and row action stays reachable on a phone. Wider,
 * a table that does not fit scrolls sideways inside its card.
 */
export function Table({
  className,
  stackOnPhone = false,
  ...props
}: ComponentProps<"table"> & { stackOnPhone?: boolean }) {
  return (
    <div className={cn("relative w-full overflow-x-auto", stackOnPhone && "table-stack")}>
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
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
