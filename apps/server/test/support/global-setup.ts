import type { TestProject } from "vitest/node";
import { createDatabaseTemplates } from "./database-templates";

/** Makes the migrated database templates once for the whole run, and drops them at its end. */
export default async function setup(project: TestProject) {
  const templates = await createDatabaseTemplates();
  project.provide("pgliteTemplate", templates.pgliteDir);
  project.provide("postgresTemplate", templates.postgresName);
  return () => templates.drop();
}
