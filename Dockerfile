# Build stage: the official Swift image on Debian bookworm, plus the -dev packages.
# scripts/check-docker-context builds from what this stage COPYs, without Docker (`make test`).
FROM swift:6.1-bookworm AS build
COPY scripts/install-deps /usr/local/bin/
RUN install-deps && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# The manifest declares the test targets too: it loads only where their folders exist.
COPY Tests ./Tests
RUN swift build -c release --product wishlist --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/wishlist" /wishlist \
    && cp -R "$(swift build -c release --show-bin-path)/Wishlist_WorldMap.resources" /Wishlist_WorldMap.resources

# Runtime stage: only the shared libraries the binary links against.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
        libmicrohttpd12 libsqlite3-0 libvips42 libmagic1 zlib1g libgnutls30 libgeonames0 libbrotli1 libical3 libgdal32 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wishlist /usr/local/bin/wishlist
# The map's basemap: Bundle.module looks for it beside the binary.
COPY --from=build /Wishlist_WorldMap.resources /usr/local/bin/Wishlist_WorldMap.resources
COPY Templates /app/Templates
COPY Public /app/Public
VOLUME /data
EXPOSE 8080
# Inside a container the published port arrives on the container's own interface, not loopback,
# so the app insists on a password: the README's "In a container" shows the docker run line.
ENTRYPOINT ["wishlist", "serve", "--host", "0.0.0.0", "--port", "8080", "--data-dir", "/data", "--resources", "/app"]
