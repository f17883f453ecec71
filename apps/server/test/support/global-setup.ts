import type { TestProject } from "vitest/node";
import { dropTemplates, templatePlaces } from "./database-templates";

/**
 * Names where the run's migrated database templates go, and removes them at its end. The first
 * test database that needs one makes it (see database-templates.ts).
 */
export default function setup(project: TestProject) {
  const places = templatePlaces();
  project.provide("databaseTemplates", places);
  return () => dropTemplates(places);
}
