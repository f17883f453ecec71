import { loadFolder } from "../files/catalogue";
import { formatProblem } from "../files/problems";
import type { Command } from "../usage";

export const validateCommand: Command = {
  name: "validate",
  summary: "Check a folder of files offline: schema, policies, parameters, scopes and limits.",
  args: "<dir>",
  positionals: { min: 1, max: 1 },
  help: "Exit code 0 when every file is valid, 1 when a file has a problem (each named by file, line and field).",
  async run({ positionals, io }) {
    const dir = positionals[0] as string;
    const { folder, problems } = loadFolder(dir);
    for (const problem of problems) io.err(formatProblem(problem));
    const count = folder.bundles.length + folder.waivers.length;
    if (problems.length > 0) {
      io.err(`${problems.length} problem(s) found.`);
      return 1;
    }
    io.out(
      `${dir}: ${count} object(s) valid (${folder.bundles.length} bundles, ${folder.waivers.length} waivers).`,
    );
    return 0;
  },
};
