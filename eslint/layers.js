// The layering of DESIGN.md as an allow-list (VS Code's code-layering rule): each folder names what
// it may import, and anything else is an error. Tests and benchmarks are not layered.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

const NODE = ['node:*', ...builtinModules];
const CORE_PACKAGES = [...NODE, 'better-sqlite3', 'undici', 'p-queue', 'zod'];

/**
 * First match wins, so the narrower folders come first. `folders` are repository paths a file of
 * the layer may import from, `modules` single modules it may import (a folder's index or a file,
 * without its extension) where the rest of their folder is closed to it; `packages` the npm
 * packages (a trailing /* takes subpaths).
 */
export const LAYERS = [
  // The SPDX License List is data, bundled at build time, so that every face checks a license alike.
  {
    layer: 'src/shared',
    folders: ['src/shared'],
    packages: ['zod', 'spdx-license-ids/index.json', 'unicode-case-folding'],
  },
  { layer: 'src/simulator', folders: ['src/simulator'], packages: [...NODE, 'zod'] },
  { layer: 'src/core/api', folders: ['src/core/api', 'src/shared'], packages: CORE_PACKAGES },
  { layer: 'src/core/store', folders: ['src/core/store', 'src/shared'], packages: CORE_PACKAGES },
  // core/export by concern (DESIGN.md, "Export"): zip/ is the format and knows no corpus; corpus/ is
  // what a corpus holds and never consults an earlier export (reuse/); verify/ checks a ZIP against
  // what the corpus says of itself (corpus/schema.ts), never against how it is written. Only the
  // folder's top level (write-corpus.ts, video-files.ts, index.ts...) joins them.
  // zip/ also reads entries other tools compress with bzip2 or LZMA, for verify (zip/other-methods.ts).
  {
    layer: 'src/core/export/zip',
    folders: ['src/core/export/zip', 'src/shared'],
    packages: [...CORE_PACKAGES, 'seek-bzip', 'lzma1'],
  },
  {
    layer: 'src/core/export/corpus',
    folders: ['src/core/export/corpus', 'src/core/export/zip', 'src/shared'],
    packages: CORE_PACKAGES,
  },
  {
    layer: 'src/core/export/reuse',
    folders: ['src/core/export/reuse', 'src/core/export/corpus', 'src/core/export/zip', 'src/shared'],
    packages: CORE_PACKAGES,
  },
  {
    layer: 'src/core/export/verify',
    folders: ['src/core/export/verify', 'src/core/export/zip', 'src/core/export/corpus/schema', 'src/shared'],
    packages: CORE_PACKAGES,
  },
  { layer: 'src/core/export', folders: ['src/core/export', 'src/shared'], packages: CORE_PACKAGES },
  {
    layer: 'src/core/engine',
    folders: ['src/core/engine', 'src/core/api', 'src/core/store', 'src/shared'],
    packages: CORE_PACKAGES,
  },
  // The read/write rule (DESIGN.md, "Who reads and who writes"): the application reads the store
  // only through its query modules (store/queries/, which only read) and the store's door (opening
  // the database, its types and errors); only the engine and the services beside it write.
  {
    layer: 'src/core/app',
    folders: [
      'src/core/app',
      'src/core/engine',
      'src/core/export',
      'src/core/api',
      'src/core/store/queries',
      'src/shared',
    ],
    modules: ['src/core/store', 'src/core/store/database'],
    // The stop words of distinctive words are data, bundled at build time as the SPDX list is.
    packages: [...CORE_PACKAGES, 'stopwords-iso/stopwords-iso.json'],
  },
  // The faces: each reaches the engine only through core/app. The CLI also starts the simulator
  // (`scriptorium sim`, `demo`) and browser mode (`scriptorium ui`).
  {
    layer: 'src/cli',
    folders: ['src/cli', 'src/core/app', 'src/shared', 'src/simulator', 'src/web'],
    packages: [...NODE, 'commander', 'cli-progress'],
  },
  { layer: 'src/web', folders: ['src/web', 'src/core/app', 'src/shared'], packages: NODE },
  {
    layer: 'src/main',
    folders: ['src/main', 'src/core/app', 'src/shared', 'src/cli'],
    packages: [...NODE, 'electron', 'electron-updater'],
  },
  { layer: 'src/preload', folders: ['src/preload', 'src/shared'], packages: ['electron'] },
  {
    layer: 'src/renderer',
    folders: ['src/renderer', 'src/shared'],
    packages: [
      'react',
      'react-dom',
      'react-dom/*',
      'react/*',
      'zustand',
      '@tanstack/react-virtual',
      // The Trends view's chart (bench/RESULTS.md, "Trends: the charting library").
      '@observablehq/plot',
      // A virtual module of the build (fast refresh in development, empty in production).
      '@vitejs/plugin-react/preamble',
    ],
  },
];

const within = (path, folder) => path === folder || path.startsWith(`${folder}/`);

function packageAllowed(specifier, packages) {
  return packages.some((allowed) =>
    allowed.endsWith('*') ? specifier.startsWith(allowed.slice(0, -1)) : specifier === allowed,
  );
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder of src/ imports only what its layer allows (DESIGN.md).' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = relative(root, context.filename).split('\\').join('/');
    const layer = LAYERS.find((entry) => within(file, entry.layer));
    if (layer === undefined) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      if (specifier.startsWith('.')) {
        const target = relative(root, resolve(dirname(context.filename), specifier))
          .split('\\')
          .join('/');
        if (layer.folders.some((folder) => within(target, folder))) return;
        if (layer.modules?.includes(target)) return;
        context.report({
          node,
          message: `${layer.layer} may not import ${target} (allowed: ${[...layer.folders, ...(layer.modules ?? [])].join(', ')}).`,
        });
        return;
      }
      if (packageAllowed(specifier, layer.packages)) return;
      context.report({ node, message: `${layer.layer} may not import the package "${specifier}".` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: rule } };
