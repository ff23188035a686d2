# Multi-stage: build the single executable, run it as a non-root user with /data as a volume.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npx bun run build

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data loadout \
 && mkdir -p /data && chown loadout /data
COPY --from=build /src/dist/loadout /usr/local/bin/loadout
USER loadout
ENV LOADOUT_DATA_DIR=/data LOADOUT_PORT=8080 LOADOUT_HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/api/v1/health || exit 1
ENTRYPOINT ["/usr/local/bin/loadout"]
CMD ["serve"]
