// `npm start` runs this first: it builds only when a source file or a tsconfig is newer than
// everything in dist/, so starting a current build costs nothing.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

function newest(path, include = () => true) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || include(entry.name))
    .reduce((latest, entry) => Math.max(latest, newest(join(path, entry.name), include)), 0);
}

const sources = Math.max(
  newest(join(root, 'src'), (name) => !name.endsWith('.spec.ts')),
  newest(join(root, 'tsconfig.json')),
  newest(join(root, 'tsconfig.build.json')),
);
// A type check (`tsc --noEmit`, as in `npm run lint`) rewrites dist/.tsbuildinfo without building.
const built = existsSync(join(root, 'dist', 'main.js'))
  ? newest(join(root, 'dist'), (name) => !name.endsWith('.tsbuildinfo'))
  : 0;
if (sources > built) execSync('npm run build', { cwd: root, stdio: 'inherit' });
