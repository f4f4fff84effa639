# The web page of `dlldoctor serve` for hosting: docker build -t dlldoctor-web . && docker run -p 8765:8765 dlldoctor-web
FROM python:3.12-slim
COPY pyproject.toml README.md LICENSE /src/
COPY engine /src/engine
COPY rules /src/rules
RUN pip install --no-cache-dir "/src[web]" && rm -rf /src
USER nobody
ENV DLLDOCTOR_CACHE_DIR=/tmp/dlldoctor-cache
EXPOSE 8765
CMD ["dlldoctor", "serve", "--host", "0.0.0.0", "--port", "8765"]
