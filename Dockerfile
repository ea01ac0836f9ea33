# Herald in a container: the production build (Cargo.toml, `[profile.production]`), then a slim
# runtime image.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --profile production --locked

FROM debian:bookworm-slim
RUN useradd --system --home /var/lib/herald --create-home herald
COPY --from=build /src/target/production/herald /usr/local/bin/herald
USER herald
WORKDIR /var/lib/herald
ENV HERALD_BIND=0.0.0.0:3000
EXPOSE 3000
CMD ["herald"]
