// The example as a static build: relative asset URLs, and the package's .wasm
// files emitted next to the code (fetched, never inlined: strict-CSP pages).
// Vite 8 compiles the JSX itself (no plugin needed).
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rolldownOptions: {
      // swr (under @ai-sdk/react) marks itself 'use client', which means nothing in a client-only bundle.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
});
