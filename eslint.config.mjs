import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'web/dist/**',
      'node_modules/**',
      'coverage/**',
      '.data/**',
      'data/**',
      'client/schema.d.ts',
    ],
  },
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
    // Module boundaries: a file may import another module (src/modules/<m>/) only through its
    // index.ts, which exports its Nest module, its services and the domain types they take and
    // return. Imports within one module are not checked. See docs/architecture.md.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
      'boundaries/elements': [{ type: 'module', pattern: 'src/modules/*', capture: ['name'] }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          message: 'Import another module only through its index.ts (docs/architecture.md)',
          policies: [
            { disallow: { to: { element: { type: 'module' } } } },
            {
              allow: {
                to: {
                  element: {
                    type: 'module',
                    fileInternalPath: 'index.ts',
                  },
                },
              },
            },
          ],
        },
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
  {
    // Persistence lives in repositories (docs/architecture.md): TypeORM is imported by repositories,
    // entities, migrations, module wiring and src/database only.
    files: ['src/**/*.ts'],
    ignores: [
      'src/**/*.repository.ts',
      'src/**/entities/*.ts',
      'src/**/*.module.ts',
      'src/**/*.spec.ts',
      'src/database/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['typeorm', 'typeorm/*', '@nestjs/typeorm'],
              message:
                'Queries belong in a *.repository.ts; a service declares its unit of work with @Transactional() (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
);
