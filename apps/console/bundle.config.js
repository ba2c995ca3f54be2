// The console's bundle: webpack (the workspace's build tool) with ts-loader, no framework. The script
// gets a content-hashed name (the API lets browsers keep it for good); the plugin below writes the
// style sheet under a hashed name too, and the index page naming both.
const { createHash } = require('node:crypto');
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { Compilation, sources } = require('webpack');

const STATIC = join(__dirname, 'src/static');
const THEME = join(__dirname, '../../libs/web-ui/src/theme.css');
const WEB_UI = join(__dirname, '../../libs/web-ui/src/index.ts');
const PLAIN_FILES = ['icon.svg'];

const digest = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

class ConsolePagePlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('ConsolePagePlugin', (compilation) => {
      for (const file of readdirSync(STATIC)) compilation.fileDependencies.add(join(STATIC, file));
      compilation.fileDependencies.add(THEME);
      compilation.hooks.processAssets.tap({ name: 'ConsolePagePlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const script = Object.keys(compilation.assets).find((name) => /^console\.[0-9a-f]+\.js$/.test(name));
        if (!script) throw new Error('the console bundle is missing');
        // the service's look shared with the other app first, then this app's own rules
        const css = Buffer.concat([readFileSync(THEME), readFileSync(join(STATIC, 'console.css'))]);
        const style = `console.${digest(css)}.css`;
        compilation.emitAsset(style, new sources.RawSource(css));
        for (const file of PLAIN_FILES) compilation.emitAsset(file, new sources.RawSource(readFileSync(join(STATIC, file))));
        const index = readFileSync(join(STATIC, 'index.html'), 'utf8').replace('__CONSOLE_JS__', script).replace('__CONSOLE_CSS__', style);
        compilation.emitAsset('index.html', new sources.RawSource(index));
      });
    });
  }
}

module.exports = {
  mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
  context: __dirname,
  target: ['web', 'es2022'],
  entry: { console: './src/app/main.ts' },
  output: { path: join(__dirname, '../../dist/apps/console'), filename: '[name].[contenthash:12].js', clean: true },
  devtool: false,
  resolve: { extensions: ['.ts', '.js'], alias: { '@twofold/web-ui': WEB_UI } },
  module: {
    rules: [
      {
        test: /\.ts$/,
        loader: 'ts-loader',
        // types are checked by `tsc -p tsconfig.app.json` before the bundle (project.json)
        options: { transpileOnly: true, configFile: join(__dirname, 'tsconfig.app.json') },
      },
    ],
  },
  performance: { hints: false },
  plugins: [new ConsolePagePlugin()],
};
