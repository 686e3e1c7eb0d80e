// Runs every bench/*.bench.ts in its own process, one after another, so that one benchmark's
// garbage and JIT state never colour the next one's figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv[2];
const files = readdirSync(__dirname)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => !only || file.includes(only))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n# ${file}`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(__dirname, file), ...process.argv.slice(3)],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
