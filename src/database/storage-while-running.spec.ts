import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as pause } from 'node:timers/promises';
import { enableWhileRunning } from './storage-while-running';

/** How many symbol-keyed properties AsyncLocalStorage left on a promise made now. */
function storePropertiesOnAPromise(): number {
  return Object.getOwnPropertySymbols(Promise.resolve()).length;
}

describe('enableWhileRunning', () => {
  let sut: AsyncLocalStorage<string>;

  beforeEach(() => {
    sut = new AsyncLocalStorage<string>();
    sut.enterWith('root');
    enableWhileRunning(sut as AsyncLocalStorage<unknown>);
  });
  afterEach(() => sut.disable());

  it('writes nothing onto the promises made outside a run, before and after one', async () => {
    const beforeARun = storePropertiesOnAPromise();
    await sut.run('unit of work', () => pause(1));
    const afterARun = storePropertiesOnAPromise();
    sut.disable();

    expect([beforeARun, afterARun]).toEqual([storePropertiesOnAPromise(), storePropertiesOnAPromise()]);
    expect(sut.getStore()).toBeUndefined();
  });

  it('gives a run its store across awaits, and nested runs theirs', async () => {
    const seen: (string | undefined)[] = [];

    await sut.run('outer', async () => {
      await pause(1);
      seen.push(sut.getStore());
      await sut.run('inner', async () => {
        await pause(1);
        seen.push(sut.getStore());
      });
      seen.push(sut.getStore());
    });

    expect(seen).toEqual(['outer', 'inner', 'outer']);
  });

  it('keeps the store of a run that is still going when another one ends', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const long = sut.run('long', async () => {
      await released;
      await pause(1);
      return sut.getStore();
    });

    await sut.run('short', () => pause(1));
    release();

    expect(await long).toBe('long');
    expect(sut.getStore()).toBeUndefined();
  });

  it('ends a run that throws or rejects like one that returns', async () => {
    expect(() =>
      sut.run('throws', () => {
        throw new Error('thrown');
      }),
    ).toThrow('thrown');
    await expect(sut.run('rejects', () => Promise.reject(new Error('rejected')))).rejects.toThrow('rejected');
    await pause(1);

    expect(sut.run('sync', () => sut.getStore())).toBe('sync');
    expect(sut.getStore()).toBeUndefined();
  });
});
