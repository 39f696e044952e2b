# One image for every process of the service (API, pipeline workers, indexer); the command picks.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies stay: the service runs TypeScript through tsx, without a separate build step.
# --include=dev because NODE_ENV=production alone makes npm omit them (tsx is one).
# Optional dependencies stay too: esbuild (under tsx) ships its binary as one.
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
EXPOSE 8080 8081
CMD ["npm", "start"]
