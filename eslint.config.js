import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './eslint/layers.js';
import vocabulary from './eslint/vocabulary.js';

/** The project's own rules (eslint/). */
const scriptorium = { rules: { ...layers.rules, ...vocabulary.rules } };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bench/.work/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The layering of DESIGN.md, as an allow-list per folder (eslint/layers.js).
    files: ['src/**'],
    plugins: { scriptorium },
    rules: { 'scriptorium/layers': 'error' },
  },
  {
    // Statuses, stop reasons, source kinds and the original track are named from
    // src/shared/vocabulary.ts, never spelled out (eslint/vocabulary.js). The store's migrations are
    // history and never change; the simulator is the service's stand-in and shares nothing with the app.
    files: ['src/**'],
    ignores: ['src/shared/vocabulary.ts', 'src/core/store/migrations/**', 'src/simulator/**'],
    plugins: { scriptorium },
    rules: { 'scriptorium/vocabulary': 'error' },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
