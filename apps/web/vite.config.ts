import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";
import { ownEntryPages } from "./src/lib/own-entry-pages.ts";
import { chunkGroups } from "./vite-chunk-groups.ts";
import { deliveryPlugin } from "./vite-delivery-plugin.ts";
import { serverRendererPlugin } from "./vite-server-renderer-plugin.ts";

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

const alias = { "@": fileURLToPath(new URL("./src", import.meta.url)) };

export default defineConfig({
  plugins: [
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    deliveryPlugin({
      routeTree: fileURLToPath(new URL("./src/routeTree.gen.ts", import.meta.url)),
      // What req-main.tsx loads before its first render when the address names a key.
      // What the signed-in area's beforeLoad imports beside the session (the tenant check).
      loaderImports: {
        "src/routes/_authenticated/route.tsx": ["src/features/shell/api/load-current-tenant.ts"],
      },
      withKey: {
        "/req": {
          entry: "req.html",
          parts: ["text-block", "src/features/waivers/components/waiver-scope-picker.tsx"],
        },
      },
    }),
    serverRendererPlugin({ entries: ["src/req-server.tsx", "src/app-server.tsx"], alias }),
  ],
  resolve: { alias },
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
        codeSplitting: { groups: chunkGroups() },
      },
    },
  },
});
