// A static build: relative asset URLs (dist/ works from any path), ES module
// workers, and the package's .wasm files emitted as assets next to its code.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // The wasm modules are fetched, never inlined as base64 (CSP-friendly, and smaller).
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  worker: { format: 'es' },
});
