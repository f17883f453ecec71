import { Link } from "@tanstack/react-router";

const linkClass =
  "rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring";

export function RecommendationsNav() {
  return (
    <nav aria-label="Recommendations" className="inline-flex gap-1 rounded-lg bg-muted p-1">
      <Link
        to="/recommendations"
        activeOptions={{ exact: true }}
        className={linkClass}
        activeProps={{ className: "bg-card text-foreground shadow-sm", "aria-current": "page" }}
      >
        Open
      </Link>
      <Link
        to="/recommendations/archive"
        className={linkClass}
        activeProps={{ className: "bg-card text-foreground shadow-sm", "aria-current": "page" }}
      >
        Archived
      </Link>
    </nav>
  );
}
