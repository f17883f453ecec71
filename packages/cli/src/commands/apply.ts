import { executePlan } from "../apply/execute";
import { renderPlan } from "../plan/render";
import { type Command, UsageError } from "../usage";
import { preparePlan, pruneOption, sourceOption } from "./plan";

export const applyCommand: Command = {
  name: "apply",
  summary: "Make the tenant match the folder: create, change and (with --prune) remove objects.",
  args: "<dir>",
  positionals: { min: 1, max: 1 },
  options: {
    "auto-approve": { type: "boolean", description: "apply without asking (for pipelines)" },
    prune: pruneOption,
    source: sourceOption,
    timeout: { type: "string", description: "seconds to wait for deployments to settle (default 900)" },
  },
  help: [
    "Shows the plan, asks for confirmation (unless --auto-approve), applies it, waits until the",
    "bundles' deployments have settled and reports each object's outcome. Objects applied are",
    "marked as managed by code with the file's path and commit; the web shows them read-only.",
    "Exit code 0 when everything applied, 1 when something failed.",
  ].join("\n"),
  async run(context) {
    const timeout = context.values.timeout === undefined ? 900 : Number(context.values.timeout);
    if (!Number.isInteger(timeout) || timeout < 1 || timeout > 86_400)
      throw new UsageError("--timeout takes a whole number of seconds from 1 to 86400.");
    const { plan, source, clients, remote } = await preparePlan(context);
    const { io } = context;
    for (const line of renderPlan(plan)) io.out(line);
    if (plan.changes.length === 0) return 0;
    if (!context.values["auto-approve"]) {
      const yes = await io.confirm("Apply these changes?");
      if (!yes) {
        io.err("Nothing applied (answer yes, or pass --auto-approve in a pipeline).");
        return 1;
      }
    }
    io.out(`Applying from ${source.path || "."}${source.commit ? `@${source.commit}` : ""}…`);
    const outcomes = await executePlan(plan, { clients, remote, source, io, timeoutSeconds: timeout });
    const failed = outcomes.filter((o) => o.result === "failed");
    for (const outcome of failed) io.err(`failed: ${outcome.detail ?? "see above"}`);
    io.out(
      failed.length === 0
        ? `Applied: ${outcomes.length} change(s).`
        : `${outcomes.length - failed.length} change(s) applied, ${failed.length} failed.`,
    );
    return failed.length === 0 ? 0 : 1;
  },
};
