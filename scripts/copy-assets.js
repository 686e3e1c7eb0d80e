// Second half of `npm run build`: tsc emits only JavaScript, so every other file under src/ (the
// sentiment model) is copied to the same place under dist/, where the built code looks for it. The
// replay's data stays in data/replay/, which the built code reads beside dist/.
const { cpSync, readdirSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const source = join(root, 'src');
const target = join(root, 'dist');

function assetsUnder(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return assetsUnder(path);
    return entry.name.endsWith('.ts') ? [] : [path];
  });
}

for (const asset of assetsUnder(source)) cpSync(asset, join(target, relative(source, asset)));
