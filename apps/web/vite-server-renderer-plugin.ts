import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { build, type Plugin, type ResolvedConfig } from "vite";

/** The folder of the built app that holds the server renderer; the server never serves it as files. */
export const SERVER_RENDERER_DIR = ".ssr";

/**
 * Builds the server renderers (`src/req-server.tsx` for the public waiver page, `src/app-server.tsx`
 * for the signed-in pages' first screens) beside the app, into `<outDir>/.ssr/<name>.js`: one file
 * per renderer with everything it uses, for Node.js, which the server loads to send those pages with
 * their content already in the HTML. Built by the app's own build, so every build of the app
 * (whatever its `--outDir`) carries the renderers of the same code.
 */
export function serverRendererPlugin(options: { entries: string[]; alias: Record<string, string> }): Plugin {
  let config: ResolvedConfig;
  return {
    name: "palisade-server-renderer",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir, SERVER_RENDERER_DIR);
      // One build per renderer: a build of one file cannot have several entries.
      for (const [index, entry] of options.entries.entries()) {
        await build({
          configFile: false,
          root: config.root,
          logLevel: "warn",
          publicDir: false,
          plugins: [react()],
          resolve: { alias: options.alias },
          ssr: { noExternal: true, target: "node" },
          // A renderer is part of the built app: React's production build, whatever the server's environment.
          define: { "process.env.NODE_ENV": JSON.stringify("production") },
          build: {
            ssr: entry,
            outDir,
            emptyOutDir: index === 0,
            rolldownOptions: { output: { codeSplitting: false } },
          },
        });
        config.logger.info(`server renderer of ${entry} in ${SERVER_RENDERER_DIR}`);
      }
    },
  };
}
