# HAProxy from Debian's package, as scripts/scale-out.sh and the fault tests run it; the
# configuration comes from deploy/ (mounted by docker-compose.yml).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends haproxy \
    && rm -rf /var/lib/apt/lists/*
USER haproxy
EXPOSE 3000
CMD ["haproxy", "-db", "-f", "/etc/herald-proxy/haproxy.cfg", "-f", "/etc/herald-proxy/upstreams-compose.cfg"]
