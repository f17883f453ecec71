import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.PALISADE_API_URL ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [tanstackRouter({ target: "react", autoCodeSplitting: true }), react(), tailwindcss()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: {
      "/api": apiTarget,
      "^/palisade\\.": apiTarget,
      "/healthz": apiTarget,
    },
  },
  preview: {
    proxy: {
      "/api": apiTarget,
      "^/palisade\\.": apiTarget,
    },
  },
  build: { outDir: "dist", emptyOutDir: true },
});
