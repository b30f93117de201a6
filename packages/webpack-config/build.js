#!/usr/bin/env node
// Builds the frontend in the current folder with the webpack version @module-federation/enhanced
// supports (webpack 5.112 moved internals federation requires). Usage:
//   node <path>/packages/webpack-config/build.js [--mode development] [--watch]
const path = require('node:path');

const webpackPath = require.resolve('webpack', { paths: [__dirname] });
// Must be set before federation's modules load: they resolve webpack internals through it.
process.env.FEDERATION_WEBPACK_PATH = webpackPath;
const webpack = require(webpackPath);

const args = process.argv.slice(2);
const modeAt = args.indexOf('--mode');
const mode = modeAt >= 0 ? args[modeAt + 1] : 'production';
const watch = args.includes('--watch');

const exported = require(path.resolve(process.cwd(), 'webpack.config.js'));
const config = typeof exported === 'function' ? exported({}, { mode }) : exported;
config.mode = mode;

const compiler = webpack(config);
const report = (err, stats) => {
  if (err) {
    console.error(err);
    if (!watch) process.exitCode = 1;
    return;
  }
  const out = stats.toString({ preset: 'errors-warnings', colors: process.stdout.isTTY });
  if (out.trim()) console.log(out);
  const { time } = stats.toJson({ all: false, timings: true });
  console.log(`${path.basename(process.cwd())}: ${stats.hasErrors() ? 'failed' : 'built'} in ${time} ms (webpack ${webpack.version}, ${mode})`);
  if (stats.hasErrors() && !watch) process.exitCode = 1;
};

if (watch) compiler.watch({}, report);
else compiler.run((err, stats) => compiler.close(() => report(err, stats)));
