import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API the dev server forwards to: `npm start` in another terminal (PORT 8000 by default). */
const api = process.env.VITE_API_TARGET ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0 },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/docs': api,
      '/openapi.json': api,
    },
  },
});
