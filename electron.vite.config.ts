import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import pkg from './package.json' with { type: 'json' };

const define = { __APP_VERSION__: JSON.stringify(pkg.version) };

export default defineConfig({
  main: {
    define,
    build: {
      // better-sqlite3 is native and must load from node_modules, never from the bundle.
      externalizeDeps: true,
      rolldownOptions: {
        // The worker thread that writes Export results is an entry of its own, found beside index.js
        // (SEARCH_EXPORT_WORKER_FILE); the code both share goes to chunks beside them too, so that
        // every `new URL(..., import.meta.url)` means the same folder wherever it lands.
        input: {
          index: 'src/main/index.ts',
          'search-export-worker': 'src/core/app/search-export-worker.ts',
        },
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    define,
    // A sandboxed preload must be CommonJS; "type": "module" would otherwise emit index.mjs.
    build: { rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    define,
    plugins: [react()],
  },
});
