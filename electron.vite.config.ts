import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import pkg from './package.json' with { type: 'json' };

const define = { __APP_VERSION__: JSON.stringify(pkg.version) };

export default defineConfig({
  main: {
    define,
    // better-sqlite3 is native and must load from node_modules, never from the bundle.
    build: { externalizeDeps: true },
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
