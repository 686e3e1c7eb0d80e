import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'data/**', 'client/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        module: 'writable',
        require: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/config.' },
      ],
    },
  },
  {
    // The vendors integration and the replay module are used through their index.ts only.
    files: ['src/**/*.ts'],
    ignores: ['src/integrations/vendors/**', 'src/modules/replay/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/integrations/vendors/*'],
              message: 'Import the vendors integration through src/integrations/vendors (its index.ts).',
            },
            {
              group: ['**/modules/replay/*', '../replay/*', '../../replay/*', '../../../replay/*'],
              message: 'Import the replay through src/modules/replay (its index.ts).',
            },
          ],
        },
      ],
    },
  },
);
