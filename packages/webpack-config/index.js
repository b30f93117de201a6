// One webpack config per federation role. Each app keeps its federation settings in its own
// federation.config.js and calls hostConfig/remoteConfig from webpack.config.js.
const path = require('node:path');
const fs = require('node:fs');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MinimizerPlugin = require('minimizer-webpack-plugin');

const uiKitVersion = require('@bahi/ui-kit/package.json').version;
const i18nVersion = require('@bahi/i18n/package.json').version;

/**
 * Singletons every frontend shares. One React (a second copy is the classic "Invalid hook call"),
 * one router (remotes render inside the shell's router), one ui-kit (its contexts — user,
 * alert, confirm — must be the shell's) and one i18next (one language for every screen).
 */
function sharedModules(dir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const deps = { ...pkg.devDependencies, ...pkg.dependencies };
  const single = (name) => ({ singleton: true, requiredVersion: deps[name] });
  return {
    react: single('react'),
    'react/': single('react'),
    'react-dom': single('react-dom'),
    'react-dom/': single('react-dom'),
    'react-router-dom': single('react-router-dom'),
    // react-router-dom re-exports react-router; share it too so a direct import can't fork the router.
    'react-router': { singleton: true, requiredVersion: false },
    '@bahi/ui-kit': { singleton: true, requiredVersion: `^${uiKitVersion}` },
    // One i18next instance: the language switch and every remote's catalogue live in it. i18next and
    // react-i18next are reached only through @bahi/i18n (so they come with it, tree-shaken, in one
    // shared chunk); a direct import of either would fork the instance.
    '@bahi/i18n': { singleton: true, requiredVersion: `^${i18nVersion}` },
  };
}

function entryFile(dir) {
  for (const f of ['src/index.ts', 'src/index.tsx']) if (fs.existsSync(path.join(dir, f))) return `./${f}`;
  return null;
}

function baseConfig({ dir, publicPath }, argv = {}) {
  const production = (argv.mode || process.env.NODE_ENV || 'production') === 'production';
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    // A remote needs no entry of its own: federation adds remoteEntry.js.
    entry: entryFile(dir) ? { main: entryFile(dir) } : {},
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath,
      // Entry names stay plain (federation's runtime module computes them; hashes aren't available
      // there); index.html cache-busts them with ?hash. Every other chunk is content-hashed.
      filename: '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.jsx', '.js'] },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          // ui-kit is TS source; symlinked workspaces resolve outside node_modules.
          exclude: /node_modules/,
          use: {
            loader: require.resolve('swc-loader'),
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production } },
                target: 'es2020',
              },
            },
          },
        },
        {
          test: /\.css$/,
          use: [require.resolve('style-loader'), require.resolve('css-loader')],
        },
        { test: /\.(png|svg|jpg|jpeg|gif|woff2?)$/, type: 'asset' },
      ],
    },
    optimization: {
      minimize: production,
      // swc minifies JS only (fast on two cores); CSS stays inside the JS via style-loader.
      minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, extractComments: false, minimizerOptions: { compress: { passes: 2 }, mangle: true } })],
      moduleIds: production ? 'deterministic' : 'named',
      // Shared singletons are already split by federation; keep vendor code apart from app code.
      splitChunks: { chunks: 'async' },
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

function federation({ name, dir, exposes, runtimePlugins }) {
  return new ModuleFederationPlugin({
    name,
    filename: exposes ? 'remoteEntry.js' : undefined,
    exposes,
    // The host declares no static remotes: it reads /remotes.json at run time.
    remotes: {},
    shared: sharedModules(dir),
    shareStrategy: 'loaded-first',
    runtimePlugins,
    manifest: true, // mf-manifest.json: what the host's runtime loads remotes from
    dts: false,
  });
}

/**
 * The shell: serves index.html at '/', loads remotes at run time.
 * @param {{ dir: string, name: string, runtimePlugins?: string[], title?: string }} opts
 */
function hostConfig(opts) {
  if (!entryFile(opts.dir)) throw new Error(`${opts.dir}: src/index.ts(x), a one-line import('./bootstrap'), is missing`);
  return (env, argv) => {
    const config = baseConfig({ dir: opts.dir, publicPath: '/' }, argv);
    config.plugins = [
      federation({ name: opts.name, dir: opts.dir, runtimePlugins: opts.runtimePlugins }),
      new HtmlWebpackPlugin({
        title: opts.title || 'Bahi',
        hash: true,
        favicon: opts.favicon,
        templateContent: ({ htmlWebpackPlugin }) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${htmlWebpackPlugin.options.title}</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`,
      }),
    ];
    return config;
  };
}

/**
 * A remote served by the gateway at /remotes/<name>/ (remoteEntry.js and mf-manifest.json).
 * @param {{ dir: string, name: string, exposes: Record<string, string> }} opts
 */
function remoteConfig(opts) {
  return (env, argv) => {
    const config = baseConfig({ dir: opts.dir, publicPath: `/remotes/${opts.name}/` }, argv);
    config.plugins = [federation({ name: opts.name, dir: opts.dir, exposes: opts.exposes })];
    return config;
  };
}

module.exports = { hostConfig, remoteConfig, sharedModules };
