# siwa-mock as a CI sidecar: a static Swift binary on debian:bookworm-slim (libssl3 + CA certificates only).
#
#   docker build -t siwa-mock .                                  # builds inside the official Swift image
#   docker build --target prebuilt --build-arg BINARY=siwa-mock \
#       -f Dockerfile DIR                                        # DIR holds a binary built outside with
#                                                                # swift build -c release --static-swift-stdlib
#
# Stage order matters for the classic builder (docker.io 20.10 without BuildKit): it builds every stage
# up to --target, so `prebuilt` comes before the stage that needs the Swift image.

ARG RUNTIME_IMAGE=debian:bookworm-slim
ARG SWIFT_IMAGE=swift:6.3-bookworm

# --- runtime-base: what every runtime image has ------------------------------------------------------
FROM ${RUNTIME_IMAGE} AS runtime-base
# libssl3 (TLS, JOSE) and ca-certificates; skipped when the base image already has them.
RUN if ! dpkg -s libssl3 ca-certificates >/dev/null 2>&1; then \
        apt-get update && apt-get install -y --no-install-recommends libssl3 ca-certificates \
        && rm -rf /var/lib/apt/lists/*; \
    fi \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/siwa-mock --create-home \
        --shell /usr/sbin/nologin siwa \
    && mkdir -p /var/lib/siwa-mock/tls && chown -R siwa:siwa /var/lib/siwa-mock && chmod 755 /var/lib/siwa-mock/tls
# Listen on every interface inside the container; keep the local CA in /var/lib/siwa-mock/tls
# (mount a volume there to keep the same CA across `docker rm`). Signing keys stay the built-in ones
# unless SIWA_MOCK_STATE_DIR is set (that generates RSA keys once, on first start).
ENV SIWA_MOCK_HOST=0.0.0.0 \
    SIWA_MOCK_PORT=8080 \
    SIWA_MOCK_TLS_DIR=/var/lib/siwa-mock/tls
WORKDIR /var/lib/siwa-mock
EXPOSE 8080 8443
# The binary checks itself: no curl or wget in the image. `health` reads SIWA_MOCK_PORT like `serve`,
# so the check follows the port (equivalent to --url http://127.0.0.1:8080 by default).
HEALTHCHECK --interval=1s --timeout=3s --start-period=10s --retries=3 \
    CMD ["siwa-mock", "health", "--timeout", "2000"]
USER siwa
ENTRYPOINT ["siwa-mock"]
CMD ["serve"]

# --- prebuilt: the runtime with a binary built outside Docker ----------------------------------------
FROM runtime-base AS prebuilt
ARG BINARY=.build/release/siwa-mock
COPY ${BINARY} /usr/local/bin/siwa-mock

# --- build: the official Swift image --------------------------------------------------------------------
FROM ${SWIFT_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends libssl-dev pkg-config && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY scenarios ./scenarios
RUN swift build -c release --static-swift-stdlib --product siwa-mock \
    && install -m 0755 "$(swift build -c release --show-bin-path)/siwa-mock" /usr/local/bin/siwa-mock \
    && strip /usr/local/bin/siwa-mock

# --- runtime (default target) ------------------------------------------------------------------------
FROM runtime-base AS runtime
COPY --from=build /usr/local/bin/siwa-mock /usr/local/bin/siwa-mock
