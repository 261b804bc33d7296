# siwa-mock as a container: the release binary on an empty (scratch) base with only what it links (nothing
# when it is fully static, as Package.swift links it where the static archives are installed; else glibc,
# OpenSSL 3 and libstdc++), the CA certificates and a non-root user: 17–21 MB. docs/container.md has the
# details; the three ways to build it:
#
#   docker build -t siwa-mock .                                      # default: compiled in the official
#                                                                    # Swift image (a registry, no Swift
#                                                                    # toolchain on this machine)
#   scripts/container-binary.sh && \
#     docker build --build-arg BUILDER_IMAGE=debian:bookworm-slim -t siwa-mock .
#                                                                    # the binary built on this Linux host
#                                                                    # (Swift 6.3 toolchain), dist/siwa-mock
#   scripts/container-offline.sh --tag siwa-mock                    # no registry at all: a debootstrap
#                                                                    # base imported as debian:bookworm-slim
#
# Both builders work (classic, DOCKER_BUILDKIT=0, as in Debian's docker.io; and BuildKit). The classic
# builder builds every stage in order whatever the target, so there are only two stages and neither
# needs an image the chosen route does not use: the route is the builder image, one build argument.

# Where the binary is built (when the image has `swift`: the default, as Swift server templates do) or
# checked (otherwise: dist/siwa-mock from the build context), and where the shared libraries are taken
# from. Its glibc and OpenSSL must be at least as new as the ones the binary was linked against: bookworm
# (glibc 2.36, OpenSSL 3.0) for a binary built on bookworm.
ARG BUILDER_IMAGE=swift:6.3-bookworm

# --- rootfs: the binary and exactly the files it needs, laid out under /rootfs ---------------------------
FROM ${BUILDER_IMAGE} AS rootfs
WORKDIR /src
# `dis[t]` copies dist/ (where scripts/container-binary.sh puts the binary) when it exists and nothing
# otherwise; a plain `dist` would fail the build when it is missing. Sources and Tests are only compiled
# in a Swift image (the package manifest names the test targets, so their folders must exist).
# `script[s]/symbol-order.tx[t]` likewise: the start-up code's layout for the static link (Package.swift,
# scripts/symbol-order.sh), moved back under scripts/ below; a context without it still builds.
COPY Package.swift dis[t] script[s]/symbol-order.tx[t] ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN set -eu; \
    if [ -f symbol-order.txt ]; then mkdir -p scripts && mv symbol-order.txt scripts/; fi; \
    if command -v swift >/dev/null; then \
        apt-get update; \
        apt-get install -y --no-install-recommends libssl-dev pkg-config ca-certificates binutils; \
        rm -rf /var/lib/apt/lists/*; \
        swift build -c release --static-swift-stdlib --product siwa-mock; \
        cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/siwa-mock" siwa-mock; \
    elif [ ! -f siwa-mock ]; then \
        echo "error: no dist/siwa-mock in the build context and no Swift toolchain in $(. /etc/os-release; echo "$PRETTY_NAME")." >&2; \
        echo "  Build the binary first: scripts/container-binary.sh (Swift 6.3 on Linux), or build inside" >&2; \
        echo "  the Swift image, the default without --build-arg BUILDER_IMAGE: docker build ." >&2; \
        exit 1; \
    fi; \
    if ! dpkg -s libssl3 ca-certificates >/dev/null 2>&1; then \
        apt-get update && apt-get install -y --no-install-recommends libssl3 ca-certificates \
        && rm -rf /var/lib/apt/lists/*; \
    fi; \
    if command -v strip >/dev/null; then strip siwa-mock; fi; \
    ldd siwa-mock >ldd.txt 2>&1 || grep -q 'not a dynamic executable' ldd.txt || echo "ldd failed" >>ldd.txt; \
    if grep -q -e 'not found' -e 'ldd failed' ldd.txt || ! ./siwa-mock --version >/dev/null; then \
        cat ldd.txt >&2; \
        echo "error: siwa-mock does not run on $(. /etc/os-release; echo "$PRETTY_NAME") (above: what is missing)." >&2; \
        echo "  Build it with --static-swift-stdlib on Debian bookworm (scripts/container-binary.sh), or name" >&2; \
        echo "  an image of the build host's distribution and release: --build-arg BUILDER_IMAGE=..." >&2; \
        exit 1; \
    fi; \
    install -D -m 0755 siwa-mock /rootfs/usr/local/bin/siwa-mock; \
    for lib in $(sed -nE 's#^[[:space:]]*(/[^ ]+) \(0x.*#\1#p; s#.*=> (/[^ ]+) \(0x.*#\1#p' ldd.txt); do \
        cp -L --parents "$lib" /rootfs; \
    done; \
    mkdir -p /rootfs/etc/ssl/certs /rootfs/usr/lib/ssl /rootfs/var/lib/siwa-mock/tls; \
    cp -L /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/; \
    ln -s /etc/ssl/certs /rootfs/usr/lib/ssl/certs; \
    ln -s /etc/ssl/certs/ca-certificates.crt /rootfs/usr/lib/ssl/cert.pem; \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nsiwa:x:10001:10001:siwa-mock:/var/lib/siwa-mock:/sbin/nologin\n' \
        >/rootfs/etc/passwd; \
    printf 'root:x:0:\nsiwa:x:10001:\n' >/rootfs/etc/group; \
    printf 'passwd: files\ngroup: files\nhosts: files dns\n' >/rootfs/etc/nsswitch.conf; \
    install -d -m 1777 /rootfs/tmp; \
    chown -R 10001:10001 /rootfs/var/lib/siwa-mock; \
    chmod 0755 /rootfs/var/lib/siwa-mock /rootfs/var/lib/siwa-mock/tls; \
    echo "image contents:"; (cd /rootfs && find . -type f -exec ls -l {} + | awk '{print $5, $NF}' | sort -n)

# --- the image ------------------------------------------------------------------------------------------
FROM scratch
COPY --from=rootfs /rootfs /
# Listen on every interface of the container's network namespace; keep the local CA in
# /var/lib/siwa-mock/tls (mount a volume there to keep the same CA across `docker rm`). Signing keys stay
# the built-in ones unless SIWA_MOCK_STATE_DIR is set (that generates RSA keys once, on first start).
#
# The control API (/mock/: replace the scenario, users, keys) has no admin token by default, so that
# `docker run -p 8080:8080 siwa-mock` is useful as it is; siwa-mock refuses an open control API on a
# non-loopback address unless told so, and this image tells it so: a container's ports are reachable only
# where they are published. Publish on loopback (-p 127.0.0.1:8080:8080) or set SIWA_MOCK_ADMIN_TOKEN
# (every /mock/ call then needs `Authorization: Bearer TOKEN`; the token wins over this flag) wherever the
# port is reachable by others. See docs/container.md, "Exposure".
ENV PATH=/usr/local/bin \
    HOME=/var/lib/siwa-mock \
    SIWA_MOCK_HOST=0.0.0.0 \
    SIWA_MOCK_PORT=8080 \
    SIWA_MOCK_TLS_DIR=/var/lib/siwa-mock/tls \
    SIWA_MOCK_INSECURE_CONTROL_API=1
WORKDIR /var/lib/siwa-mock
EXPOSE 8080 8443
# The binary checks itself (there is no shell, curl or wget in the image). `health` reads SIWA_MOCK_PORT
# like `serve`, so the check follows the port: http://127.0.0.1:$SIWA_MOCK_PORT/mock/health, which needs
# no admin token.
HEALTHCHECK --interval=1s --timeout=3s --start-period=10s --retries=3 \
    CMD ["siwa-mock", "health", "--timeout", "2000"]
# Numeric, so that Kubernetes' runAsNonRoot can check it; /etc/passwd names it `siwa`.
USER 10001:10001
ENTRYPOINT ["siwa-mock"]
CMD ["serve"]
