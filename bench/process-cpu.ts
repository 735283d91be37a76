import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds used so far by each process of a process group (Linux /proc), keyed by pid. */
export function groupCpu(pgid: number): Map<number, { cmd: string; seconds: number }> {
  const out = new Map<number, { cmd: string; seconds: number }>();
  const pids = execSync(`pgrep -g ${pgid} || true`).toString().split('\n').filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.set(pid, { cmd, seconds: ticks / 100 });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** Own CPU seconds of this Node process (the load generator). */
export const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
