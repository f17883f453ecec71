# Palisade: the server compiled ahead of time (run by plain node) and the built web app, with
# runtime dependencies only, as a non-root user. The build stage runs `npm run build:server`,
# which anyone can run without Docker (see docs/operations.md, "Production build").
# Build: docker build -t palisade .   Run two replicas with PostgreSQL: docker compose up

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Manifests first, so dependencies are cached until they change.
COPY package.json package-lock.json ./
COPY packages/api/package.json packages/api/
COPY packages/policy-engine/package.json packages/policy-engine/
COPY packages/sandbox-cloud/package.json packages/sandbox-cloud/
COPY packages/cli/package.json packages/cli/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
# dist/server: the bundles, migrations, catalogue and web app, and `npm ci --omit=dev` of the
# few packages that cannot be bundled.
RUN npm run build:server

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root: the server writes only under DATA_DIR.
COPY --from=build /app/dist/server /app
# Named volumes mounted under /data (and the sandbox's /data/sandbox) start owned by the unprivileged user.
RUN mkdir -p /data/sandbox && chown -R node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "main.mjs"]
