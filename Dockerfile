FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
# editable: the app finds alembic.ini, migrations/, static/ and templates/ beside app/
RUN pip install --no-cache-dir -e . \
 && useradd --create-home doppelrunde && mkdir -p /app/data && chown doppelrunde /app/data
USER doppelrunde
EXPOSE 8000
VOLUME ["/app/data"]
CMD ["python", "-m", "app", "serve"]
