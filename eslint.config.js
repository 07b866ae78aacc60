import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layering rules of DESIGN.md, enforced rather than kept in prose:
// faces -> core/app -> core parts -> shared; core never reaches a face, electron or react.
const faces = ['**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**', '**/web/**'];

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
    files: ['src/core/**', 'src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'react', 'react-dom'],
          patterns: [{ group: faces, message: 'core and shared never import a face (DESIGN.md).' }],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'src/shared is pure TypeScript: no Node modules.' },
            { group: ['**/core/**', ...faces], message: 'src/shared imports nothing of the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/simulator/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/core/**'], message: 'The simulator shares no code with the client.' }] },
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [{ group: ['**/core/**', '**/main/**', '**/cli/**', '**/web/**', 'node:*'] }],
        },
      ],
    },
  },
);
