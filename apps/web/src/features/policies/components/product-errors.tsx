import type { ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { cn } from "@/lib/utils";
import { errorCodeText } from "../bundle-status";

/** The product errors a bundle or a deployment carries: for each, its title and what to do. */
export function ProductErrors({
  codes,
  label,
  className,
}: {
  codes: readonly ProductErrorCode[];
  label: string;
  className?: string;
}) {
  if (codes.length === 0) return null;
  return (
    <ul aria-label={label} className={cn("space-y-1", className)}>
      {codes.map((code) => {
        const { title, message } = errorCodeText(code);
        return (
          <li key={code}>
            <span className="font-medium text-destructive">{title}</span>
            {message && <span className="text-muted-foreground"> — {message}</span>}
          </li>
        );
      })}
    </ul>
  );
}
