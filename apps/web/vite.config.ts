import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";
import { ownEntryPages } from "./src/lib/own-entry-pages";
import { deliveryPlugin } from "./vite-delivery-plugin";

const htmlOf = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

const apiTarget = process.env.PALISADE_API_URL ?? "http://127.0.0.1:8080";

// The auth server only accepts requests from its own origin; through the dev proxy the browser's
// origin is Vite's, so the proxy presents the server's own origin instead.
const toServer: ProxyOptions = {
  target: apiTarget,
  configure: (proxy) => {
    proxy.on("proxyReq", (request) => {
      if (request.getHeader("origin")) request.setHeader("origin", apiTarget);
    });
  },
};

export default defineConfig({
  plugins: [
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    deliveryPlugin({ routeTree: fileURLToPath(new URL("./src/routeTree.gen.ts", import.meta.url)) }),
  ],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: { "/api": toServer, "^/palisade\\.": toServer, "/healthz": toServer },
  },
  preview: {
    proxy: { "/api": toServer, "^/palisade\\.": toServer, "/healthz": toServer },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // dist/.vite/manifest.json: the first-load size check reads which chunks each page loads.
    manifest: true,
    rolldownOptions: {
      // The app, and each page served from its own HTML (the public waiver page).
      input: Object.fromEntries([
        ["index", htmlOf("index")],
        ...ownEntryPages.map((page) => [page.slice(1), htmlOf(page.slice(1))]),
      ]),
      output: {
        codeSplitting: {
          groups: [
            // A few large chunks compress far better than a dozen small ones. What every entry
            // needs (React, the class-name helpers) is one chunk; the router, the query library and
            // zod, which only the app loads, are another, so the waiver page does not load them.
            {
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler|tailwind-merge|clsx|class-variance-authority)[\\/]/,
            },
            {
              name: "framework",
              test: /node_modules[\\/](@tanstack[\\/](react-router|router-core|history|store|react-store|query-core|react-query)|zod[\\/]v4[\\/](core|mini))[\\/]/,
            },
          ],
        },
      },
    },
  },
});
