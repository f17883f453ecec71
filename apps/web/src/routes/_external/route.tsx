import { createFileRoute, Outlet } from "@tanstack/react-router";
import { externalSearchSchema } from "./-search";

export const Route = createFileRoute("/_external")({
  validateSearch: externalSearchSchema,
  component: Outlet,
});
