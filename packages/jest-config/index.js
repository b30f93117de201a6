// One jest preset for every workspace: TypeScript (with Nest decorators) through swc,
// real parts only, and a JSON result per workspace that scripts/test.mjs adds up.
const path = require('node:path');

/** @param {string} dir the workspace folder (pass __dirname) @param {object} [extra] overrides */
module.exports = function jestConfig(dir, extra = {}) {
  return {
    rootDir: dir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/**/*.test.ts', '<rootDir>/**/*.test.tsx'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    // ES-module-only packages turned into CommonJS for jest: ICU messages (i18next-icu) need
    // intl-messageformat and @formatjs; backups' encryption (age-encryption) its @noble/@scure parts.
    transformIgnorePatterns: ['/node_modules/(?!(intl-messageformat|@formatjs|age-encryption|@noble|@scure)/)'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        require.resolve('@swc/jest'),
        {
          jsc: {
            parser: { syntax: 'typescript', decorators: true, tsx: true },
            transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
            target: 'es2022',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    testTimeout: 60_000,
    maxWorkers: process.env.CI ? 1 : 2,
    ...extra,
  };
};
