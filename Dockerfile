FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
# editable: the app finds alembic.ini, migrations/, static/ and templates/ beside app/.
# The hot modules are compiled with mypyc into /app/build/compiled (app/compiled.py, README
# "Compiled hot modules"); the compiler and mypy are removed again after the build.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
 && pip install --no-cache-dir -e . "mypy>=1.10" "setuptools>=68" \
 && python -m app compile \
 && pip uninstall -y mypy \
 && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home doppelrunde && mkdir -p /app/data && chown doppelrunde /app/data
ENV DOPPELRUNDE_COMPILED=1
USER doppelrunde
EXPOSE 8000
VOLUME ["/app/data"]
CMD ["python", "-m", "app", "serve"]
