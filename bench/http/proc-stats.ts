// Server cost read from /proc: CPU time of a process and every process below it (all threads
// included, so the embedded database's worker thread counts), and its resident memory.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = (() => {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
})();

function descendants(pid: number): number[] {
  const found: number[] = [];
  const taskDir = `/proc/${pid}/task`;
  if (!existsSync(taskDir)) return found;
  for (const task of readdirSync(taskDir)) {
    const children = readFileSync(`${taskDir}/${task}/children`, 'utf8').trim();
    for (const child of children ? children.split(/\s+/).map(Number) : []) {
      found.push(child, ...descendants(child));
    }
  }
  return found;
}

/**
 * utime + stime of one process and cutime + cstime of its children that have exited (fields 14 to
 * 17 of /proc/<pid>/stat), in seconds: the embedded database's connection processes come and go,
 * and their time would otherwise vanish from the sum when they exit (even turn it negative).
 */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after it are separated by single spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return (utime + stime + cutime + cstime) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0; // a child that exited between listing and reading
  }
}

/** CPU seconds used so far by the process and its descendants. */
export function cpuSeconds(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, each) => sum + processCpuSeconds(each), 0);
}

export interface Memory {
  /** Resident set size now, MB. */
  rssMb: number;
  /** High-water mark of the resident set, MB. */
  peakMb: number;
}

/** Resident memory of the process itself (children are reported apart by the caller if any). */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Resident memory of the descendants (a database server the service started), MB. */
export function descendantsRssMb(pid: number): number {
  return descendants(pid).reduce((sum, child) => {
    try {
      return sum + memoryOf(child).rssMb;
    } catch {
      return sum;
    }
  }, 0);
}
