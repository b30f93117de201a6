// Whole-stack tests: one stack of real processes per file, one file at a time.
module.exports = require('@bahi/jest-config')(__dirname, {
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 300_000,
  maxWorkers: 1,
});
