import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'build-if-stale.js');

/** `npm start`'s build check, in a scratch project whose "build" only leaves a mark. */
describe('build-if-stale (prestart)', () => {
  let root: string;
  const file = (path: string, ageSeconds: number) => {
    const at = Date.now() / 1000 - ageSeconds;
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), at, at);
  };
  const run = () => {
    rmSync(join(root, 'built'), { force: true });
    rmSync(join(root, 'built-web'), { force: true });
    execFileSync(process.execPath, [join(root, 'scripts', 'build-if-stale.js')], {
      cwd: root,
      stdio: 'pipe',
    });
  };
  const start = () => {
    run();
    return existsSync(join(root, 'built')) ? 'built' : 'skipped';
  };
  const startWeb = () => {
    run();
    return existsSync(join(root, 'built-web')) ? 'built' : 'skipped';
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
    for (const directory of ['scripts', 'src', 'dist']) mkdirSync(join(root, directory));
    copyFileSync(SCRIPT, join(root, 'scripts', 'build-if-stale.js'));
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({
        scripts: {
          'build:api': "node -e \"require('fs').writeFileSync('built', '')\"",
          'build:web': "node -e \"require('fs').writeFileSync('built-web', '')\"",
        },
      }),
    );
    file('tsconfig.json', 100);
    file('tsconfig.build.json', 100);
    file('src/main.ts', 60);
    file('src/main.spec.ts', 60);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when there is no build', () => {
    expect(start()).toBe('built');
  });

  it('starts a current build as it is', () => {
    file('dist/main.js', 30);
    expect(start()).toBe('skipped');
  });

  it('rebuilds after a source or a tsconfig changed, not after a spec did', () => {
    file('dist/main.js', 30);
    file('src/main.spec.ts', 10);
    expect(start()).toBe('skipped');
    file('src/main.ts', 10);
    expect(start()).toBe('built');
    file('dist/main.js', 5);
    file('tsconfig.build.json', 1);
    expect(start()).toBe('built');
  });

  it('rebuilds after a source changed even when a type check rewrote dist/.tsbuildinfo since', () => {
    file('dist/main.js', 30);
    file('src/main.ts', 10);
    file('dist/.tsbuildinfo', 5);
    expect(start()).toBe('built');
  });

  describe('the web app', () => {
    beforeEach(() => {
      for (const directory of ['web', 'web/src', 'web/dist', 'client']) mkdirSync(join(root, directory));
      file('dist/main.js', 30);
      file('web/index.html', 100);
      file('web/src/main.tsx', 60);
      file('client/index.ts', 60);
    });

    it('builds it when web/dist has no index.html, and not the API when that is current', () => {
      expect(startWeb()).toBe('built');
      expect(existsSync(join(root, 'built'))).toBe(false);
    });

    it('starts a current build as it is, and rebuilds after the app or the client changed', () => {
      file('web/dist/index.html', 30);
      expect(startWeb()).toBe('skipped');
      file('web/src/main.tsx', 10);
      expect(startWeb()).toBe('built');
      file('web/dist/index.html', 5);
      file('client/index.ts', 1);
      expect(startWeb()).toBe('built');
    });
  });
});
