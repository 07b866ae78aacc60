import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

// The CLI is bundled into one ESM file that bin/scriptorium imports; every
// package dependency stays external so native modules load from node_modules.
const external = [
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...Object.keys(pkg.dependencies),
];

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      // The worker threads that write Export results in browser mode and prepare stored transcripts
      // are entries of their own, found beside index.js (SEARCH_EXPORT_WORKER_FILE,
      // PREPARATION_WORKER_FILE); the code they share goes to chunks beside them.
      input: {
        index: 'src/cli/index.ts',
        'search-export-worker': 'src/core/app/search-export-worker.ts',
        'preparation-worker': 'src/core/app/preparation-worker.ts',
      },
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
