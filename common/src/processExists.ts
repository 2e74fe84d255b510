/** Whether a process with that pid exists now (another user's counts; a zombie too). */
export function processExists(pid: number): boolean {
  if (pid <= 0) return false; // kill(0) and negative pids address groups, not a process
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
