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
        // The worker threads that write Export results and prepare stored transcripts are entries of
        // their own, found beside index.js (SEARCH_EXPORT_WORKER_FILE, PREPARATION_WORKER_FILE); the
        // code they share goes to chunks beside them too, so that every `new URL(..., import.meta.url)`
        // means the same folder wherever it lands.
        input: {
          index: 'src/main/index.ts',
          'search-export-worker': 'src/core/app/search-export-worker.ts',
          'preparation-worker': 'src/core/app/preparation-worker.ts',
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
