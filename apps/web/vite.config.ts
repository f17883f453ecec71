import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";
import { deliveryPlugin } from "./vite-delivery-plugin";

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
      output: {
        codeSplitting: {
          groups: [
            // One framework chunk compresses far better than a dozen small ones, which keeps every
            // page's first load (and the public waiver page's budget) small.
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|store|react-store|query-core|react-query)|zod[\\/]v4[\\/](core|mini)|tailwind-merge|clsx|class-variance-authority)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
