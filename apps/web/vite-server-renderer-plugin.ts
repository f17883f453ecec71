import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { build, type Plugin, type ResolvedConfig } from "vite";

/** The folder of the built app that holds the server renderer; the server never serves it as files. */
export const SERVER_RENDERER_DIR = ".ssr";

/**
 * Builds the public waiver page's server renderer (`src/req-server.tsx`) beside the app, into
 * `<outDir>/.ssr/req-server.js`: one file with everything it uses, for Node.js, which the server
 * loads to send `/req` with its content already in the HTML. Built by the app's own build, so
 * every build of the app (whatever its `--outDir`) carries the renderer of the same code.
 */
export function serverRendererPlugin(options: { entry: string; alias: Record<string, string> }): Plugin {
  let config: ResolvedConfig;
  return {
    name: "palisade-server-renderer",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      await build({
        configFile: false,
        root: config.root,
        logLevel: "warn",
        publicDir: false,
        plugins: [react()],
        resolve: { alias: options.alias },
        ssr: { noExternal: true, target: "node" },
        build: {
          ssr: options.entry,
          outDir: resolve(config.root, config.build.outDir, SERVER_RENDERER_DIR),
          emptyOutDir: true,
          rolldownOptions: { output: { codeSplitting: false } },
        },
      });
      config.logger.info(`server renderer of ${options.entry} in ${SERVER_RENDERER_DIR}`);
    },
  };
}
