import { loadValidFolder } from "../files/catalogue";
import { type Plan, planChanges } from "../plan/plan";
import { renderPlan } from "../plan/render";
import { resolveSource, type Source } from "../plan/source";
import { type ClientFactory, clientFactory, connectionFromEnv } from "../remote/client";
import { type RemoteState, readRemoteState } from "../remote/state";
import type { Command, CommandContext } from "../usage";

export const sourceOption = {
  type: "string",
  description:
    "the folder's path in the repository and the commit, e.g. palisade@3f2c1e0 (default: the folder and $GITHUB_SHA or $CI_COMMIT_SHA)",
} as const;
export const pruneOption = {
  type: "boolean",
  description: "also remove managed objects whose file is gone (never objects made by hand)",
} as const;

/** Reads the folder and the tenant and works out the changes; shared by plan and apply. */
export async function preparePlan(
  context: CommandContext,
): Promise<{ plan: Plan; source: Source; clients: ClientFactory; dir: string; remote: RemoteState }> {
  const dir = context.positionals[0] as string;
  const source = resolveSource(dir, context.values.source as string | undefined, context.env);
  const clients = clientFactory(connectionFromEnv(context.env));
  const folder = loadValidFolder(dir);
  const remote = await readRemoteState(clients, {
    notifications: folder.notificationSettings ? "required" : "skip",
  });
  const plan = planChanges(folder, remote, { source, prune: Boolean(context.values.prune) });
  return { plan, source, clients, dir, remote };
}

export const planCommand: Command = {
  name: "plan",
  summary: "Show what apply would create, change and remove, without changing anything.",
  args: "<dir>",
  positionals: { min: 1, max: 1 },
  options: { prune: pruneOption, source: sourceOption },
  help: "Exit code 0 when the tenant matches the files, 2 when there are changes, 1 on an error.",
  async run(context) {
    const { plan } = await preparePlan(context);
    for (const line of renderPlan(plan)) context.io.out(line);
    return plan.changes.length === 0 ? 0 : 2;
  },
};
