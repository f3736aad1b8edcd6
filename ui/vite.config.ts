import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The Tauri web view loads ui/dist in production and this dev server (devUrl) in development.
export default defineConfig({
  plugins: [react()],
  clearScreen: false,
  server: { port: 5173, strictPort: true, host: "127.0.0.1" },
  build: {
    outDir: "dist",
    target: "es2022",
    sourcemap: false,
    // An audio worklet is loaded as a script by its address: a data: URL would be refused by the
    // window's CSP (script-src 'self'), so it is always its own file. Other assets keep the default.
    assetsInlineLimit: (file) => (file.endsWith(".worklet.js") ? false : undefined),
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
