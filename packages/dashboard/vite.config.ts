import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * Relative asset URLs (`base: './'`): the page is served at `<prefix>/ui/` under whatever prefix the host mounts,
 * and its files at `<prefix>/ui/assets/*`. Names carry a content hash, so the core caches them for a year.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The core's CSP allows no inline script or style; Vite's module preload polyfill would be inline.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name].[hash].js',
        chunkFileNames: 'assets/[name].[hash].js',
        assetFileNames: 'assets/[name].[hash][extname]',
      },
    },
  },
});
