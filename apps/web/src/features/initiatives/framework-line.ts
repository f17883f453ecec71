/**
 * The framework line under an initiative's title: its framework and version, unless the title
 * already says them (a framework's own initiative is named "<framework> <version>").
 */
export function frameworkLine(initiative: { name: string; frameworkName: string; frameworkVersion: string }) {
  const line = [initiative.frameworkName, initiative.frameworkVersion].filter(Boolean).join(" ");
  return initiative.name.toLowerCase().includes(line.toLowerCase()) ? "" : line;
}
