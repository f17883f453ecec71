import { LoaderIcon } from "lucide-react";

export function PagePending() {
  return (
    <div
      role="status"
      className="flex min-h-[40vh] items-center justify-center gap-2 text-sm text-muted-foreground"
    >
      <LoaderIcon className="size-4 animate-spin" aria-hidden="true" />
      Loading...
    </div>
  );
}
