// `npm start` runs this first: it builds the API only when a source file or a tsconfig is newer
// than everything in dist/, and the web app only when its sources or the client are newer than
// web/dist/, so starting a current build costs nothing.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

function newest(path, include = () => true) {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || include(entry.name))
    .reduce((latest, entry) => Math.max(latest, newest(join(path, entry.name), include)), 0);
}

// `build-if-stale.js web` (the test suites' global setup) checks the web app only.
const webOnly = process.argv[2] === 'web';

const sources = Math.max(
  newest(join(root, 'src'), (name) => !name.endsWith('.spec.ts')),
  newest(join(root, 'tsconfig.json')),
  newest(join(root, 'tsconfig.build.json')),
);
// A type check (`tsc --noEmit`, as in `npm run lint`) rewrites dist/.tsbuildinfo without building.
const built = existsSync(join(root, 'dist', 'main.js'))
  ? newest(join(root, 'dist'), (name) => !name.endsWith('.tsbuildinfo'))
  : 0;
if (!webOnly && sources > built) execSync('npm run build:api', { cwd: root, stdio: 'inherit' });

const webSources = Math.max(
  newest(join(root, 'web', 'src')),
  newest(join(root, 'web', 'index.html')),
  newest(join(root, 'web', 'vite.config.ts')),
  newest(join(root, 'client'), (name) => name.endsWith('.ts')),
  newest(join(root, 'src', 'bootstrap', 'app-paths.ts')),
);
const webBuilt = existsSync(join(root, 'web', 'dist', 'index.html')) ? newest(join(root, 'web', 'dist')) : 0;
// Vite builds React's development bundle when NODE_ENV says so, as jest's NODE_ENV=test does: the
// app in web/dist is served by `npm start` too, so it is always the production build.
if (webSources > webBuilt) {
  execSync('npm run build:web', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
