import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Gives the calling thread a lower CPU scheduling priority (a higher nice value), so that on a busy machine the
 * threads serving requests get the cores first and background work takes what is left. Linux keeps a nice value
 * per thread and applies setpriority(2) on a thread id to that thread alone (and to the threads it starts later,
 * such as an ONNX runtime's); elsewhere nice is per process, so this does nothing there. Returns whether it applied.
 */
export function niceThisThread(nice: number): boolean {
  if (nice === 0 || process.platform !== 'linux') return false;
  try {
    // /proc/thread-self links to <pid>/task/<tid>: the id setpriority(2) takes for one thread.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    // A container may forbid it; the thread then runs at the process's priority, as before.
    return false;
  }
}
