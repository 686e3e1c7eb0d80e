# Three stages: build compiles TypeScript and bundles the web app; deps installs production
# dependencies only (with the optional native packages of linux-x64); runtime gets those, dist/,
# web/dist/ and the replay's data/, and nothing else: no TypeScript, no sources, no dev
# dependencies, no npm cache.

FROM node:20.20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces (the typed client, the web app) are installed with the root.
COPY client/package.json ./client/
COPY web/package.json ./web/
# npm ls fails when node_modules misses anything in the lock file: npm 10 can end `npm ci` with
# "Exit handler never called!" and exit code 0 after failed downloads, leaving it incomplete.
RUN npm ci --no-audit --no-fund && npm ls --all > /dev/null
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.js ./scripts/
COPY src ./src
COPY client ./client
COPY web ./web
# The build copies the assets under src/ (the sentiment model) next to the compiled code in dist/,
# and bundles the web app into web/dist/ (its libraries are dev dependencies: all in the bundle).
RUN npm run build && find dist -name '*.map' -delete && rm -f dist/.tsbuildinfo

FROM node:20.20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY client/package.json ./client/
COPY web/package.json ./web/
# typeorm names ts-node as an optional peer, so --omit=dev keeps ts-node and TypeScript (the lock
# file marks them devOptional); nothing loads them at run time, so they are removed here.
RUN npm ci --omit=dev --no-audit --no-fund && npm ls --omit=dev --all > /dev/null \
  && node -e "const lock = require('./package-lock.json'); \
    for (const [path, entry] of Object.entries(lock.packages)) \
      if (entry.devOptional) require('node:fs').rmSync(path, { recursive: true, force: true });" \
  && npm cache clean --force

FROM node:20.20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
# The offline replay reads data/replay/ beside dist/ (src/modules/replay/replay-data.loader.ts).
COPY data ./data
# Everything under /app stays root's and read-only to the service; it writes only to /data.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# What `npm start` runs with (docs/performance.md, "Memory"). A fixed mmap threshold: glibc's
# adapts it upwards after the boot frees its large buffers, and the blocks that then come from its
# heap stay resident once freed (≈ 12 MB of an idle replica). A 512 MB old-generation limit keeps a
# replica near 270 MB under load instead of letting V8 grow the heap to 2-3 × its live objects; the
# young generation keeps V8's size (16 MB semi-spaces), which the boot grows and the service gives
# back once its warm-ups are done (src/bootstrap/reduce-memory.ts). No allocation-site pretenuring:
# with dozens of requests in flight at every scavenge, V8 sees their objects survive and allocates
# them straight into the old generation, which then needs a full collection every second or so
# under load (the light routes' p99 and a third of their CPU). Raise --max-old-space-size with the
# memory a replica is given.
ENV MALLOC_MMAP_THRESHOLD_=131072
CMD ["node", "--max-old-space-size=512", "--no-allocation-site-pretenuring", "dist/main.js"]
