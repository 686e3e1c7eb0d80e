// Projects: pure/unit specs beside the code; the medium tier (test/medium: one module booted on a
// real database, no HTTP); and the HTTP e2e suite. The database tiers run once on the embedded
// PostgreSQL (a server of its own per test app) and once on a real PostgreSQL server (only when
// TEST_DATABASE_URL is set).
// Type checking is tsc's job (npm run build, lint); the tests transpile file by file, which is much faster.
const transform = {
  '^.+\\.ts$': [
    'ts-jest',
    { tsconfig: { isolatedModules: true, emitDecoratorMetadata: true, experimentalDecorators: true } },
  ],
};
const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFiles: ['reflect-metadata'],
};

const projects = [
  {
    ...base,
    displayName: 'unit',
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
  },
  {
    ...base,
    displayName: 'medium',
    testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
    setupFiles: ['reflect-metadata', '<rootDir>/test/setup/use-embedded.ts'],
  },
  {
    ...base,
    displayName: 'e2e-embedded',
    testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/test/integration/**/*.spec.ts'],
    setupFiles: ['reflect-metadata', '<rootDir>/test/setup/use-embedded.ts'],
    globalSetup: '<rootDir>/test/setup/build-web-app.js',
  },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    ...base,
    displayName: 'medium-postgres',
    testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
    setupFiles: ['reflect-metadata', '<rootDir>/test/setup/use-postgres.ts'],
  });
  projects.push({
    ...base,
    displayName: 'e2e-postgres',
    testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/test/integration/**/*.spec.ts'],
    setupFiles: ['reflect-metadata', '<rootDir>/test/setup/use-postgres.ts'],
    globalSetup: '<rootDir>/test/setup/build-web-app.js',
  });
}

// Real Chromium against a listening service (test/browser): Debian's package, never a downloaded
// browser. .ci/run installs it; elsewhere the project runs when it is there.
const CHROMIUM = '/usr/bin/chromium';
if (require('node:fs').existsSync(CHROMIUM)) {
  projects.push({
    ...base,
    displayName: 'browser',
    testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
    setupFiles: ['reflect-metadata', '<rootDir>/test/setup/use-embedded.ts'],
    globalSetup: '<rootDir>/test/setup/build-web-app.js',
  });
} else {
  console.warn(
    `Browser tests skipped: ${CHROMIUM} is missing (install it with: sudo apt-get install -y chromium)`,
  );
}

module.exports = {
  projects,
  testTimeout: 30000,
  // Every test file loads the service's modules afresh (the word lists of the password check and the
  // assistant among them) and a worker's heap keeps growing across files: a worker past this size
  // after a file is replaced by a fresh one instead of running out of memory.
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
};
