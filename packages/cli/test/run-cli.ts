import { main } from "../src/main";

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Runs the command line in this process, as `palisade <args>` would, with the given environment. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  answer = false,
): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      confirm: async () => answer,
    },
    env,
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}
