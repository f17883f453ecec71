import type { Change, FieldChange, Plan } from "./plan";

const SYMBOL = { create: "+", update: "~", replace: "-/+", remove: "-" } as const;

function show(value: unknown): string {
  if (value === undefined) return "(none)";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function fieldLines(fields: FieldChange[]): string[] {
  return fields.map((f) => `      ${f.field}: ${show(f.before)} → ${show(f.after)}`);
}

/** One line naming the object and where it comes from. */
export function describeChange(change: Change): string {
  switch (change.object) {
    case "bundle":
      return "file" in change
        ? `bundle "${change.file.value.name}" (${change.file.path})`
        : `bundle "${change.remote.name}" (${change.remote.key}, from ${change.remote.managedBy?.path ?? "?"})`;
    case "waiver":
      return "file" in change
        ? `waiver on "${change.file.value.bundle}" (${change.file.path})`
        : `waiver on "${change.remote.file.bundle}" (from ${change.remote.managedBy?.path ?? "?"})`;
    case "tenant-settings":
      return `tenant settings (${change.file.path})`;
    case "notification-settings":
      return `notification settings (${change.file.path})`;
  }
}

/** The plan as a reviewer reads it: one line per object, the fields that change below it. */
export function renderPlan(plan: Plan): string[] {
  const lines: string[] = [];
  for (const change of plan.changes) {
    lines.push(`  ${SYMBOL[change.action].padEnd(3)} ${change.action} ${describeChange(change)}`);
    if ("fields" in change) lines.push(...fieldLines(change.fields));
  }
  for (const note of plan.notes) lines.push(`  note: ${note}`);
  const count = (action: Change["action"]) => plan.changes.filter((c) => c.action === action).length;
  lines.push(
    plan.changes.length === 0
      ? "No changes: the tenant matches the files."
      : `Plan: ${count("create")} to create, ${count("update")} to change, ${count("replace")} to replace, ${count("remove")} to remove.`,
  );
  return lines;
}
