// The app's bundle: webpack (the build tool of the workspace's other projects) with ts-loader, no
// framework. Two entries: the app (content-hashed file name, so the API can let browsers keep it for
// good) and the service worker (a fixed name: its URL is its identity). The plugin below writes the
// static files, the index page naming the hashed script and style, and the service worker's shell list.
const { createHash } = require('node:crypto');
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { Compilation, sources } = require('webpack');

const STATIC = join(__dirname, 'src/static');
const THEME = join(__dirname, '../../libs/web-ui/src/theme.css');
const WEB_UI = join(__dirname, '../../libs/web-ui/src/index.ts');
/** copied under their own names (the manifest names the icons; the API gives them a short cache) */
const PLAIN_FILES = ['manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png'];

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

class AppShellPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('AppShellPlugin', (compilation) => {
      for (const file of readdirSync(STATIC)) compilation.fileDependencies.add(join(STATIC, file));
      compilation.fileDependencies.add(THEME);
      compilation.hooks.processAssets.tap({ name: 'AppShellPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const script = Object.keys(compilation.assets).find((name) => /^app\.[0-9a-f]+\.js$/.test(name));
        if (!script) throw new Error('the app bundle is missing');
        // the service's look shared with the other app first, then this app's own rules
        const css = Buffer.concat([readFileSync(THEME), readFileSync(join(STATIC, 'app.css'))]);
        const style = `app.${digest(css)}.css`;
        compilation.emitAsset(style, new sources.RawSource(css));
        for (const file of PLAIN_FILES) compilation.emitAsset(file, new sources.RawSource(readFileSync(join(STATIC, file))));
        const index = readFileSync(join(STATIC, 'index.html'), 'utf8').replace('__APP_JS__', script).replace('__APP_CSS__', style);
        compilation.emitAsset('index.html', new sources.RawSource(index));
        const shell = ['./', script, style, ...PLAIN_FILES];
        const version = digest(shell.map((name) => (name === './' ? index : compilation.assets[name].source())).join('\n'));
        const worker = compilation.assets['sw.js'].source().toString();
        if (!worker.includes('__APP_SHELL__') || !worker.includes('__APP_VERSION__')) throw new Error('sw.js lacks its placeholders');
        compilation.updateAsset(
          'sw.js',
          new sources.RawSource(worker.replace('__APP_SHELL__', shell.join(',')).replace('__APP_VERSION__', version)),
        );
      });
    });
  }
}

module.exports = {
  mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
  context: __dirname,
  target: ['web', 'es2022'],
  entry: { app: './src/app/main.ts', sw: './src/sw/sw.ts' },
  output: {
    path: join(__dirname, '../../dist/apps/authenticator'),
    filename: (data) => (data.chunk.name === 'sw' ? 'sw.js' : '[name].[contenthash:12].js'),
    clean: true,
  },
  devtool: false,
  resolve: { extensions: ['.ts', '.js'], alias: { '@twofold/web-ui': WEB_UI } },
  module: {
    rules: [
      {
        test: /\.ts$/,
        loader: 'ts-loader',
        // types are checked by `tsc -p tsconfig.app.json` and `tsconfig.sw.json` before the bundle (project.json)
        options: { transpileOnly: true, configFile: join(__dirname, 'tsconfig.app.json') },
      },
    ],
  },
  performance: { hints: false },
  plugins: [new AppShellPlugin()],
};
