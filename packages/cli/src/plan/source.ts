import { isAbsolute, relative, sep } from "node:path";
import { UsageError } from "../usage";

/**
 * Where the files come from: the folder's path in the repository and the commit. Objects applied
 * from a file are marked with `<path>/<file>` and the commit; `--prune` looks only at objects
 * marked under the same folder path.
 */
export interface Source {
  path: string;
  commit: string;
}

const COMMIT_VARIABLES = [
  "GITHUB_SHA",
  "CI_COMMIT_SHA",
  "BUILD_SOURCEVERSION",
  "BITBUCKET_COMMIT",
  "GIT_COMMIT",
];

function cleanPath(path: string): string {
  return path
    .split(sep)
    .join("/")
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "")
    .replace(/^\.$/, "");
}

/** From `--source path@commit`, or the folder argument and the CI's commit variable. */
export function resolveSource(dir: string, option: string | undefined, env: NodeJS.ProcessEnv): Source {
  const commitFromEnv = COMMIT_VARIABLES.map((name) => env[name]?.trim()).find(Boolean) ?? "";
  if (option !== undefined) {
    const at = option.lastIndexOf("@");
    const path = cleanPath(at >= 0 ? option.slice(0, at) : option);
    const commit = at >= 0 ? option.slice(at + 1).trim() : commitFromEnv;
    if (!/^[0-9A-Za-z._/-]{0,64}$/.test(commit))
      throw new UsageError(`--source: "${commit}" is not a commit (at most 64 letters, digits, . _ / -).`);
    if (path.length > 400) throw new UsageError("--source: the path is longer than 400 characters.");
    return { path, commit };
  }
  const fromCwd = relative(process.cwd(), dir);
  const path = cleanPath(isAbsolute(dir) && fromCwd.startsWith("..") ? dir.replace(/^\/+/, "") : fromCwd);
  return { path, commit: commitFromEnv.slice(0, 64) };
}

/** The path an object applied from this file is marked with. */
export function sourcePathOf(source: Source, file: string): string {
  return source.path ? `${source.path}/${file}` : file;
}
