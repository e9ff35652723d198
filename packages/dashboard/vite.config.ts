import { defineConfig } from 'vite';

/**
 * Relative asset URLs (`base: './'`): the page is served at `<prefix>/ui/` under whatever prefix the host mounts,
 * and its files at `<prefix>/ui/assets/*`. Names carry a content hash, so the core caches them for a year.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // Vite's own esbuild compiles the TSX to Preact's automatic runtime. @preact/preset-vite would add Babel (~20 MB
  // on every install) for dev-server niceties (prefresh, hook names) the production build never uses.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
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
