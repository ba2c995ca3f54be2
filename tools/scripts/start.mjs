// `npm start`: builds the API, then runs it in this process' place (signals reach it directly).
import { spawn, spawnSync } from 'node:child_process';
import { nxEnv } from './nx-env.mjs';

const root = new URL('../..', import.meta.url).pathname;
const build = spawnSync('npx', ['nx', 'build', 'api', '--output-style=stream'], { cwd: root, env: nxEnv, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const api = spawn(process.execPath, ['dist/apps/api/main.js'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
