# Engram: one image for the API and the pipeline workers.
FROM node:20-bookworm-slim

# better-sqlite3 builds from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
# npm ci runs `prepare` (scripts/build.mjs), which skips itself until the sources are copied.
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .

# Compile the TypeScript ahead of time into dist/; the image runs the compiled output only.
RUN node scripts/build.mjs --no-cache

# Bake the GloVe binary cache into the image so every replica starts in well under a second.
ENV CACHE_DIR=/app/cache DATA_DIR=/data
RUN node dist/api/admin/cli.js cache build

EXPOSE 8080
CMD ["node", "dist/api/main.js"]
