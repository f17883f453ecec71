import { cloudDisplayName } from "@/lib/scope-names";
import { cn } from "@/lib/utils";

/**
 * A cloud scope, account, subscription, policy or principal by name, its id on hover; copying
 * the name copies the id with it, as the id is what other tools take.
 */
export function CloudName({ name, id, className }: { name?: string; id: string; className?: string }) {
  const shown = cloudDisplayName(name, id);
  const named = shown.text !== shown.id;
  return (
    <span
      className={cn("break-words", className)}
      title={named ? shown.id : undefined}
      data-id={shown.id}
      onCopy={
        named
          ? (event) => {
              event.clipboardData.setData("text/plain", `${shown.text} (${shown.id})`);
              event.preventDefault();
            }
          : undefined
      }
    >
      {shown.text}
    </span>
  );
}
